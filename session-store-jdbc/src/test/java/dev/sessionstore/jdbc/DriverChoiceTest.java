package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drivers and the pool are the application's choice: each scenario ({@link DriverScenarios}) runs in a class
 * loader holding this module's test class path less the libraries a user did not add (or with Spring Boot 3.5's
 * managed pgjdbc in place of ours), as the user's application would, never a mock of one.
 */
class DriverChoiceTest {

  private static final String PGJDBC = "/org/postgresql/postgresql/";
  private static final String SQLITE = "/org/xerial/sqlite-jdbc/";
  private static final String HIKARICP = "/com/zaxxer/HikariCP/";

  @TempDir
  Path folder;

  @Test
  void postgresUrlWithoutPgjdbcFailsNamingTheDependency() throws Exception {
    String answer = run("roundTripOnUrl", postgresUrl(), List.of(PGJDBC), List.of());

    assertThat(answer).startsWith("refused jdbcUrl: ").contains("PostgreSQL JDBC driver")
        .contains("add the dependency org.postgresql:postgresql (version 42.7.13, managed by"
            + " dev.sessionstore:session-store-bom)");
  }

  @Test
  void sqliteUrlWithoutSqliteJdbcFailsNamingTheDependency() throws Exception {
    String answer = run("roundTripOnUrl", "jdbc:sqlite:" + folder.resolve("a.db"), List.of(SQLITE), List.of());

    assertThat(answer).startsWith("refused jdbcUrl: ")
        .contains("add the dependency org.xerial:sqlite-jdbc (version 3.53.4.0, managed by");
  }

  @Test
  void urlWithoutHikariCpFailsNamingTheDependency() throws Exception {
    String answer = run("roundTripOnUrl", "jdbc:sqlite:" + folder.resolve("a.db"), List.of(HIKARICP), List.of());

    assertThat(answer).startsWith("refused jdbcUrl: ").contains("opens a pool of its own")
        .contains("add the dependency com.zaxxer:HikariCP (version 6.3.3, managed by");
    assertThat(folder.resolve("a.db")).doesNotExist();
  }

  @Test
  void sqliteDataSourceNeedsNeitherPgjdbcNorHikariCp() throws Exception {
    String answer = run("roundTripOnSqliteDataSource", folder.resolve("b.db").toString(), List.of(PGJDBC, HIKARICP),
        List.of());

    assertThat(answer).isEqualTo("read back hello");
  }

  @Test
  void postgresDataSourceNeedsNeitherSqliteJdbcNorHikariCp() throws Exception {
    String answer = run("roundTripOnPostgresDataSource", postgresUrl(), List.of(SQLITE, HIKARICP), List.of());

    assertThat(answer).isEqualTo("read back hello");
  }

  @Test
  void postgresUrlNeedsNoSqliteJdbc() throws Exception {
    String answer = run("roundTripOnUrl", postgresUrl(), List.of(SQLITE), List.of());

    assertThat(answer).isEqualTo("read back hello");
  }

  /** Spring Boot 3.5.7 manages pgjdbc 42.7.8: the store works on it and warns with the fix. */
  @Test
  void bootManagedPgjdbcWorksAndWarnsWithTheProperty() throws Exception {
    List<String> bootPgjdbc = List.of(System.getProperty("sessionstore.test.bootPgjdbc"));
    assertThat(Path.of(bootPgjdbc.get(0))).exists();

    assertThat(run("roundTripOnUrl", postgresUrl(), List.of(PGJDBC), bootPgjdbc)).isEqualTo("read back hello");
    assertThat(run("versionCheck", "POSTGRESQL", List.of(PGJDBC), bootPgjdbc)).startsWith("42.7.8 ")
        .contains("org.postgresql:postgresql 42.7.8, below the 42.7.13 session-store needs")
        .contains("depend on org.postgresql:postgresql 42.7.13")
        .contains("under Spring Boot set the property postgresql.version=42.7.13");
  }

  @Test
  void theTestedVersionsPassTheirChecks() throws Exception {
    for (String library : List.of("POSTGRESQL", "SQLITE", "HIKARICP")) {
      assertThat(run("versionCheck", library, List.of(), List.of())).endsWith(" accepted");
    }
  }

  private static String postgresUrl() {
    return TestDatabase.get().urlWithCredentials("driver-choice");
  }

  /**
   * Runs {@code DriverScenarios.<scenario>(argument)} in a class loader of the test class path without the jars
   * whose path holds any of {@code without}, plus {@code extraJars}; the platform class loader is its parent, so
   * nothing of this test's own class path leaks in.
   */
  private static String run(String scenario, String argument, List<String> without, List<String> extraJars)
      throws Exception {
    List<URL> urls = new ArrayList<>();
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> removed = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      String path = entry.replace(File.separatorChar, '/');
      if (without.stream().anyMatch(path::contains)) {
        removed.add(entry);
      } else {
        urls.add(url(entry));
      }
    }
    assertThat(removed).as("jars left out of " + classPath).hasSameSizeAs(without);
    for (String jar : extraJars) {
      urls.add(url(jar));
    }
    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      Thread.currentThread().setContextClassLoader(loader);
      Method method = loader.loadClass(DriverScenarios.class.getName()).getMethod(scenario, String.class);
      return (String) method.invoke(null, argument);
    } catch (InvocationTargetException e) {
      throw new AssertionError("scenario " + scenario + " without " + without + " threw", e.getCause());
    } finally {
      Thread.currentThread().setContextClassLoader(previous);
    }
  }

  private static URL url(String entry) throws MalformedURLException {
    if (!Files.exists(Path.of(entry))) {
      throw new AssertionError("class path entry " + entry + " does not exist");
    }
    return Path.of(entry).toUri().toURL();
  }
}
