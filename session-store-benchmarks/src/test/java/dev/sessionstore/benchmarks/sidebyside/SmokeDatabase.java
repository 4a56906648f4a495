package dev.sessionstore.benchmarks.sidebyside;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The PostgreSQL a smoke test of a measure set runs on: the one {@value #URL_VARIABLE} (or the system property
 * {@value #URL_PROPERTY}) names, else an embedded PostgreSQL started for the test and stopped after it. Prints which,
 * the password masked.
 */
public final class SmokeDatabase {

  public static final String URL_VARIABLE = "SESSION_STORE_TEST_JDBC_URL";
  public static final String URL_PROPERTY = "sessionstore.test.jdbcUrl";

  private SmokeDatabase() {
  }

  /** What a smoke test does with the database's JDBC URL. */
  @FunctionalInterface
  public interface Check {

    /** Runs the measures on the database at {@code url} and checks what they wrote. */
    void run(String url) throws Exception;
  }

  /** Runs {@code check} on the database, {@code test} naming the smoke test in what it prints. */
  public static void run(String test, Check check) throws Exception {
    String explicit = System.getenv(URL_VARIABLE);
    if (explicit == null || explicit.isBlank()) {
      explicit = System.getProperty(URL_PROPERTY);
    }
    if (explicit != null && !explicit.isBlank()) {
      System.out.println(test + " uses: explicit URL " + explicit.replaceAll("password=[^&]*", "password=***"));
      check.run(explicit);
      return;
    }
    try (EmbeddedPostgres embedded = EmbeddedPostgres.builder().start()) {
      String url = embedded.getJdbcUrl("postgres", "postgres");
      System.out.println(test + " uses: embedded PostgreSQL " + url + " (no " + URL_VARIABLE + " given)");
      check.run(url);
    }
  }
}
