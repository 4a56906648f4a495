package dev.sessionstore.benchmarks.sidebyside;

import java.util.List;

/**
 * Measures {@code session-store-spring-ai-session} side by side with spring-ai-session's own
 * {@code JdbcSessionRepository} on the same PostgreSQL, through the harness of {@code session-store-benchmarks}
 * ({@link Harness}: the same options, page and chart): an append, {@code findEvents} last 20 at three history
 * lengths, a compaction, and {@value SpringAiSessionWriters#WRITERS} threads appending to one session with nothing
 * lost. Its own module, since spring-ai-session needs Spring AI 2 where the other measures run on Spring AI 1.1.
 *
 * <p>Its rows join the published page ({@code docs/benchmarks.md}, kept by {@link Publication}) beside the other
 * measures' rows, each run replacing only its own measures' rows on its Java. From the repository's root, with the PostgreSQL {@link dev.sessionstore.benchmarks.StoreKind#URL_VARIABLE} names (its
 * user allowed to create schemas), the measures take under a minute on a 2-core machine, after the build:
 * <pre>{@code
 * ./mvnw -B -ntp -q -pl session-store-benchmarks-spring-ai-session -am package exec:java -DskipTests \
 *     -Dmaven.javadoc.skip=true -Dexec.args="--out docs"
 * }</pre>
 * ({@code --java} does not apply here: exec:java runs in Maven's JVM; set {@code JAVA_HOME} per Java instead.)
 * {@code --smoke} and {@code --only} (class names: {@code SpringAiSessionAppend}, {@code SpringAiSessionTail},
 * {@code SpringAiSessionCompaction}, {@code SpringAiSessionWriters}) and {@code --note} work as for the harness.
 */
public final class SpringAiSessionHarness {

  private SpringAiSessionHarness() {
  }

  /** Runs the measures with the harness's options, and publishes their rows beside the other measures' rows. */
  public static void main(String[] args) throws Exception {
    Harness.run(SpringAiSessionHarness.class, args, measures(), List.of());
  }

  /** The measures, in the order the page lists them. */
  static List<Measure> measures() {
    return List.of(
        new SpringAiSessionAppend(),
        new SpringAiSessionTail(),
        new SpringAiSessionCompaction(),
        new SpringAiSessionWriters());
  }
}
