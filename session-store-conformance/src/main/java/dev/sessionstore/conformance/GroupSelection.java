package dev.sessionstore.conformance;

import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Disables a nested group of the kit that the test class's {@link KitGroups} does not name, with the annotation's
 * reason; without the annotation every group runs.
 */
final class GroupSelection implements ExecutionCondition {

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    Optional<Class<?>> group = context.getTestClass().filter(Contract.class::isAssignableFrom);
    Optional<Class<?>> kit = context.getParent().flatMap(ExtensionContext::getTestClass);
    if (group.isEmpty() || kit.isEmpty() || context.getTestMethod().isPresent()) {
      return ConditionEvaluationResult.enabled("not a group of the kit");
    }
    Optional<KitGroups> selection = AnnotationSupport.findAnnotation(kit.get(), KitGroups.class);
    if (selection.isEmpty()) {
      return ConditionEvaluationResult.enabled("the whole kit runs");
    }
    boolean named = Arrays.stream(selection.get().value()).anyMatch(contract -> contract.isAssignableFrom(group.get()));
    return named
        ? ConditionEvaluationResult.enabled("named by @KitGroups")
        : ConditionEvaluationResult.disabled(group.get().getSimpleName() + " runs elsewhere: "
            + selection.get().reason());
  }
}
