package dev.sessionstore.jdbc.internal;

import dev.sessionstore.InvalidArgumentException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The libraries the store uses when the application brings them: the PostgreSQL driver, the SQLite driver and
 * HikariCP, each an optional dependency of session-store-jdbc that the application chooses. Each knows its Maven
 * coordinates, the version session-store-bom manages (the one this library is tested with), the least version the
 * store accepts and the Spring Boot property that sets Boot's managed version, so that a missing or too old library
 * fails (or warns) with the exact fix.
 *
 * <p>The minimums and why:
 * <ul>
 *   <li>pgjdbc 42.7.13, warned below: earlier versions send an extra round trip (a {@code Sync}) before every
 *       server-prepared statement whose result has text columns, the append's call among them; the store is correct
 *       on them, only slower, so it starts and logs a warning.</li>
 *   <li>sqlite-jdbc 3.38.0.0, failed below: sqlite-jdbc bundles the SQLite of its first three numbers, and the store's
 *       statements use SQLite 3.38's {@code ->>} JSON operator, which older versions reject on every read.</li>
 *   <li>HikariCP 5.1.0, warned below: the store uses only the pool's basic configuration
 *       ({@code HikariConfig} URL, pool name and size, connection and initialization-fail timeouts, data source
 *       properties), present in older versions too; its tests ran on 5.1.0 and run on 6.3.3, the version
 *       session-store-bom manages (whose slf4j-api is the library's own, 2.0.17).</li>
 * </ul>
 */
public enum DriverLibrary {

  /** pgjdbc, the PostgreSQL JDBC driver. */
  POSTGRESQL("PostgreSQL JDBC driver", "org.postgresql", "postgresql", "org.postgresql.Driver", "42.7.13",
      "postgresql.version", false,
      "earlier versions send an extra round trip before every server-prepared statement returning text columns,"
          + " the append's among them: the store works, slower"),
  /** sqlite-jdbc (xerial), the SQLite JDBC driver with SQLite bundled. */
  SQLITE("SQLite JDBC driver", "org.xerial", "sqlite-jdbc", "org.sqlite.JDBC", "3.38.0.0", "sqlite-jdbc.version", true,
      "the SQLite it bundles must know the ->> JSON operator (SQLite 3.38) the store's statements use"),
  /** HikariCP, the pool the store opens for a JDBC URL. */
  HIKARICP("HikariCP connection pool", "com.zaxxer", "HikariCP", "com.zaxxer.hikari.HikariDataSource", "5.1.0",
      "hikaricp.version", false, "older versions are untested with the store");

  private static final Logger LOG = LoggerFactory.getLogger(DriverLibrary.class);
  private static final String MANAGED_VERSIONS = "/dev/sessionstore/jdbc/driver-versions.properties";
  private static final Properties MANAGED = managedVersions();

  private final String title;
  private final String groupId;
  private final String artifactId;
  private final String markerClass;
  private final String minimum;
  private final String bootProperty;
  private final boolean failsBelowMinimum;
  private final String whyMinimum;

  DriverLibrary(String title, String groupId, String artifactId, String markerClass, String minimum,
      String bootProperty, boolean failsBelowMinimum, String whyMinimum) {
    this.title = title;
    this.groupId = groupId;
    this.artifactId = artifactId;
    this.markerClass = markerClass;
    this.minimum = minimum;
    this.bootProperty = bootProperty;
    this.failsBelowMinimum = failsBelowMinimum;
    this.whyMinimum = whyMinimum;
  }

  /** The Maven coordinates without version, {@code org.postgresql:postgresql}. */
  public String coordinates() {
    return groupId + ":" + artifactId;
  }

  /** The version session-store-bom manages for it, the one this library is built and tested with. */
  public String managedVersion() {
    return MANAGED.getProperty(artifactId);
  }

  /** The least version the store accepts without failing or warning. */
  public String minimum() {
    return minimum;
  }

  /**
   * Whether the library is on the class path of the store (loaded and, for a driver, registered with
   * {@code DriverManager}, as its static initializer does).
   */
  public boolean isPresent() {
    return markerClass().isPresent();
  }

  /**
   * Fails unless the library is on the class path, naming the dependency to add.
   *
   * @param field the builder setting that needs it, named by the exception
   * @param need  what needs it, as the message says: {@code "jdbcUrl(\"jdbc:postgresql:...\") connects through"}
   * @throws InvalidArgumentException naming {@code field}, the Maven coordinates and the managed version
   */
  public void require(String field, String need) {
    if (!isPresent()) {
      throw new InvalidArgumentException(field, need + " the " + title + ", which is not on the class path: add the"
          + " dependency " + coordinates() + " (version " + managedVersion() + ", managed by"
          + " dev.sessionstore:session-store-bom)");
    }
  }

  /**
   * The version on the class path, from the jar's Maven metadata or else its manifest; empty when the library is
   * absent or its jar tells no version (repackaged).
   */
  public Optional<String> version() {
    return markerClass().flatMap(this::versionOf);
  }

  /**
   * Checks the version on the class path against {@link #minimum()}: below it, fails or warns through SLF4J as the
   * library's minimum says, naming the version found, the minimum and the fix (the Maven dependency, and under
   * Spring Boot the property that sets Boot's managed version). An unknown version passes.
   *
   * @return the warning logged, if any
   * @throws InvalidArgumentException naming {@code field} when the version is below a minimum the store needs
   */
  public Optional<String> checkVersion(String field) {
    Optional<String> found = version();
    if (found.isEmpty() || compare(found.get(), minimum) >= 0) {
      return Optional.empty();
    }
    String problem = "the " + title + " on the class path is " + coordinates() + " " + found.get() + ", below the "
        + minimum + " session-store needs (" + whyMinimum + "): depend on " + coordinates() + " "
        + managedVersion() + " (managed by dev.sessionstore:session-store-bom), or under Spring Boot set the property "
        + bootProperty + "=" + managedVersion();
    if (failsBelowMinimum) {
      throw new InvalidArgumentException(field, problem);
    }
    LOG.warn("session-store: {}", problem);
    return Optional.of(problem);
  }

  /** Compares dotted versions number by number ({@code 42.7.8 < 42.7.13}); a part's trailing letters are ignored. */
  static int compare(String left, String right) {
    String[] a = left.split("[.-]");
    String[] b = right.split("[.-]");
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      int difference = Long.compare(number(a, i), number(b, i));
      if (difference != 0) {
        return difference;
      }
    }
    return 0;
  }

  private static long number(String[] parts, int index) {
    if (index >= parts.length) {
      return 0;
    }
    String digits = parts[index].replaceFirst("^(\\d*).*$", "$1");
    return digits.isEmpty() ? 0 : Long.parseLong(digits);
  }

  private Optional<Class<?>> markerClass() {
    try {
      return Optional.of(Class.forName(markerClass, true, DriverLibrary.class.getClassLoader()));
    } catch (ClassNotFoundException | LinkageError absent) {
      return Optional.empty();
    }
  }

  private Optional<String> versionOf(Class<?> marker) {
    URL metadata = marker.getResource("/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties");
    if (metadata != null) {
      try (InputStream in = metadata.openStream()) {
        Properties properties = new Properties();
        properties.load(in);
        String version = properties.getProperty("version");
        if (version != null && !version.isBlank()) {
          return Optional.of(version.trim());
        }
      } catch (IOException unreadable) {
        LOG.debug("session-store: cannot read {}", metadata, unreadable);
      }
    }
    return Optional.ofNullable(marker.getPackage() == null ? null : marker.getPackage().getImplementationVersion());
  }

  private static Properties managedVersions() {
    try (InputStream in = DriverLibrary.class.getResourceAsStream(MANAGED_VERSIONS)) {
      Properties properties = new Properties();
      if (in == null) {
        throw new IllegalStateException("session-store-jdbc is missing " + MANAGED_VERSIONS);
      }
      properties.load(in);
      return properties;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
