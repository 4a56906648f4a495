package dev.sessionstore.conformance;

import dev.sessionstore.Capability;
import dev.sessionstore.SessionStore;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;

/**
 * What a kit run will verify, printed on the console once per kit class and JVM, when its first test opens a store:
 * the store, the capabilities it declares and lacks, and each group with whether it runs or is skipped and why, so an
 * adapter author sees at a glance what the run certifies (skips are otherwise only in the test reports). Groups that
 * run still skip single tests needing a capability the store lacks, each naming it.
 */
final class KitReport {

  private static final Set<Class<?>> PRINTED = ConcurrentHashMap.newKeySet();

  private KitReport() {
  }

  /** Prints {@link #describe} for {@code kit}'s class, the first time a test of that class opens a store. */
  static void printOnce(SessionStoreConformance kit, SessionStore store) {
    if (PRINTED.add(kit.getClass())) {
      System.out.println(describe(kit, store));
    }
  }

  /** The report's text: one line for the store, two for its capabilities, one per group. */
  static String describe(SessionStoreConformance kit, SessionStore store) {
    Set<Capability> declared = EnumSet.noneOf(Capability.class);
    declared.addAll(store.capabilities());
    Set<Capability> lacking = EnumSet.allOf(Capability.class);
    lacking.removeAll(declared);
    StringBuilder text = new StringBuilder()
        .append("session-store conformance kit: ").append(kit.getClass().getName()).append(" on ").append(store)
        .append("\n  declares:         ").append(names(declared))
        .append("\n  does not declare: ").append(names(lacking))
        .append(" (the group Absent capabilities checks that each is refused)");
    for (Class<?> group : groups()) {
      Set<Capability> missing = Capabilities.missing(store, requiredCapabilities(kit, group));
      text.append("\n  ").append(missing.isEmpty() ? "runs   " : "skips  ").append(displayName(group));
      if (!missing.isEmpty()) {
        text.append(": ").append(Capabilities.skipReason(missing));
      }
    }
    return text.toString();
  }

  private static String names(Set<Capability> capabilities) {
    return capabilities.isEmpty() ? "none"
        : capabilities.stream().map(Capability::name).collect(Collectors.joining(", "));
  }

  /** The kit's nested groups, in the order of their names. */
  private static List<Class<?>> groups() {
    return Arrays.stream(SessionStoreConformance.class.getDeclaredClasses())
        .filter(Contract.class::isAssignableFrom)
        .sorted(Comparator.comparing(Class::getSimpleName))
        .toList();
  }

  private static String displayName(Class<?> group) {
    DisplayName name = group.getAnnotation(DisplayName.class);
    return group.getSimpleName() + (name == null ? "" : " (" + name.value() + ")");
  }

  /** The capabilities {@code group} needs, asked of a group instance bound to {@code kit} (no store is opened). */
  private static Set<Capability> requiredCapabilities(SessionStoreConformance kit, Class<?> group) {
    try {
      Constructor<?> constructor = group.getDeclaredConstructor(SessionStoreConformance.class);
      constructor.setAccessible(true);
      return ((Contract) constructor.newInstance(kit)).requiredCapabilities();
    } catch (NoSuchMethodException | InstantiationException | IllegalAccessException
        | InvocationTargetException e) {
      throw new IllegalStateException("kit group " + group.getName() + " cannot be instantiated", e);
    }
  }
}
