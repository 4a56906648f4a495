package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The figures of the kit's README (kit tests per guarantee, broken stores and how many tests must catch each) are
 * counted from the kit itself, so they cannot fall behind it: this test counts them and fails, printing the block to
 * paste, when the README's block differs.
 */
class KitFiguresTest {

  private static final String START = "<!-- kit-figures:start -->";
  private static final String END = "<!-- kit-figures:end -->";

  @Test
  void theReadmeFiguresAreTheKitsOwn() throws Exception {
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    int start = readme.indexOf(START);
    int end = readme.indexOf(END);
    assertThat(start).as("%s in README.md", START).isNotNegative();
    assertThat(end).as("%s in README.md", END).isGreaterThan(start);

    String counted = figures();
    assertThat(readme.substring(start, end + END.length())).as("the README's figures; counted now:\n%s", counted)
        .isEqualTo(counted);
  }

  /** The block as the kit counts it now. */
  private static String figures() throws Exception {
    Map<Integer, Integer> perGuarantee = new TreeMap<>();
    int tests = 0;
    int untagged = 0;
    for (Class<?> group : SessionStoreConformance.class.getDeclaredClasses()) {
      if (!Contract.class.isAssignableFrom(group)) {
        continue;
      }
      for (Method method : group.getSuperclass().getDeclaredMethods()) {
        if (!method.isAnnotationPresent(Test.class)) {
          continue;
        }
        tests++;
        List<Integer> guarantees = Arrays.stream(method.getAnnotationsByType(Tag.class)).map(Tag::value)
            .filter(tag -> tag.startsWith("guarantee-")).map(tag -> Integer.parseInt(tag.substring(10))).toList();
        guarantees.forEach(guarantee -> perGuarantee.merge(guarantee, 1, Integer::sum));
        if (guarantees.isEmpty()) {
          untagged++;
        }
      }
    }
    List<BrokenStoreTest> broken = brokenStores();
    long twice = broken.stream().filter(store -> store.catches().size() >= 2).count();
    StringBuilder block = new StringBuilder(START).append("\n")
        .append("| Guarantee ([docs/guarantees.md](../docs/guarantees.md)) | Kit tests that check it |\n")
        .append("|---|---|\n");
    perGuarantee.forEach((guarantee, count) -> block.append("| ").append(guarantee).append(" | ").append(count)
        .append(" |\n"));
    block.append("| none named (edge cases and the rules around them) | ").append(untagged).append(" |\n\n")
        .append(tests).append(" kit test methods in ").append(groupCount()).append(" groups (a parameterized test ")
        .append("counts once here). ").append(broken.size()).append(" broken stores in the self-tests, ")
        .append(twice).append(" of them caught by two or more independent tests each.\n")
        .append(END);
    return block.toString();
  }

  private static long groupCount() {
    return Arrays.stream(SessionStoreConformance.class.getDeclaredClasses())
        .filter(Contract.class::isAssignableFrom).count();
  }

  /** One instance of every broken-store test of the self-tests, found by their source files. */
  private static List<BrokenStoreTest> brokenStores() throws IOException {
    Path dir = Path.of("src/test/java/dev/sessionstore/conformance/broken");
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(path -> path.getFileName().toString())
          .filter(name -> name.startsWith("Broken") && name.endsWith("Test.java"))
          .sorted()
          .map(name -> instantiate("dev.sessionstore.conformance.broken." + name.replace(".java", "")))
          .collect(Collectors.toList());
    }
  }

  private static BrokenStoreTest instantiate(String className) {
    try {
      var constructor = Class.forName(className).getDeclaredConstructor();
      constructor.setAccessible(true);
      return (BrokenStoreTest) constructor.newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("broken store " + className + " cannot be built", e);
    }
  }

}
