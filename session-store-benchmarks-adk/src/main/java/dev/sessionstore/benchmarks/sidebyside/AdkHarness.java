package dev.sessionstore.benchmarks.sidebyside;

import java.util.List;

/**
 * Measures {@code session-store-adk} side by side with Google ADK's own {@code InMemorySessionService}, through the
 * harness of {@code session-store-benchmarks} ({@link Harness}: the same options, page and chart): concurrent
 * {@code appendEvent} rounds on the in-memory store and on PostgreSQL. Its own module, since google-adk's dependencies
 * do not converge with those of the other measures' frameworks.
 *
 * <p>Its rows join the published page ({@code docs/benchmarks.md}, kept by {@link Publication}) beside the other
 * measures' rows, each run replacing only its own measures' rows on its Java. From the repository's root, with the
 * PostgreSQL {@link dev.sessionstore.benchmarks.StoreKind#URL_VARIABLE} names (its user allowed to create schemas),
 * the measures take about a minute on a 2-core machine, after the build:
 * <pre>{@code
 * ./mvnw -B -ntp -q -pl session-store-benchmarks-adk -am package exec:java -DskipTests \
 *     -Dmaven.javadoc.skip=true -Dexec.args="--out docs"
 * }</pre>
 * ({@code --java} does not apply here: exec:java runs in Maven's JVM; set {@code JAVA_HOME} per Java instead.)
 * {@code --smoke} and {@code --only} (class names: {@code AdkAppendsInMemory}, {@code AdkAppendsPostgres}) and
 * {@code --note} work as for the harness.
 */
public final class AdkHarness {

  private AdkHarness() {
  }

  /** Runs the measures with the harness's options, and publishes their rows beside the other measures' rows. */
  public static void main(String[] args) throws Exception {
    Harness.run(AdkHarness.class, args, measures(), List.of());
  }

  /** The measures, in the order the page lists them. */
  static List<Measure> measures() {
    return List.of(new AdkAppendsInMemory(), new AdkAppendsPostgres());
  }
}
