package dev.sessionstore.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;

/**
 * The PostgreSQL every JDBC test runs against, chosen once per test JVM, in this order:
 * <ol>
 *   <li>an explicit JDBC URL: environment variable {@value #URL_VARIABLE} or system property
 *       {@value #URL_PROPERTY} (CI points it at the machine's PostgreSQL);</li>
 *   <li>a Testcontainers PostgreSQL, when a Docker engine answers; Testcontainers is not even asked when there is
 *       obviously no engine (no {@code DOCKER_HOST} or {@code TC_HOST}, no {@code docker.host} or {@code tc.host}
 *       in {@code ~/.testcontainers.properties}, none of the usual Docker sockets), as its failed search logs
 *       errors;</li>
 *   <li>embedded PostgreSQL binaries from Maven (zonky), which need nothing installed.</li>
 * </ol>
 * The choice is printed, so a test log always says which database it used. The URL's user must be allowed to
 * create schemas and roles (a superuser, as each of the three is by default).
 */
public final class TestDatabase {

  static final String URL_VARIABLE = "SESSION_STORE_TEST_JDBC_URL";
  static final String URL_PROPERTY = "sessionstore.test.jdbcUrl";

  private static final Logger LOG = LoggerFactory.getLogger(TestDatabase.class);
  private static final AtomicLong NAMES = new AtomicLong();
  private static TestDatabase instance;

  private final String url;
  private final String user;
  private final String password;

  private TestDatabase(String url, String user, String password) {
    this.url = url;
    this.user = user;
    this.password = password;
  }

  /** The database of this test JVM, started on first use. */
  public static synchronized TestDatabase get() {
    if (instance == null) {
      instance = choose();
    }
    return instance;
  }

  private static TestDatabase choose() {
    String explicit = System.getenv(URL_VARIABLE);
    if (explicit == null || explicit.isBlank()) {
      explicit = System.getProperty(URL_PROPERTY);
    }
    if (explicit != null && !explicit.isBlank()) {
      return announce("explicit URL " + explicit.replaceAll("password=[^&]*", "password=***"),
          new TestDatabase(explicit, null, null));
    }
    Optional<String> noEngine = obviouslyNoDockerEngine();
    if (noEngine.isEmpty() && dockerAnswers()) {
      PostgreSQLContainer<?> container = new PostgreSQLContainer<>("postgres:16-alpine");
      container.start();
      Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
      return announce("Testcontainers " + container.getJdbcUrl() + " (no " + URL_VARIABLE + " given)",
          new TestDatabase(container.getJdbcUrl(), container.getUsername(), container.getPassword()));
    }
    try {
      EmbeddedPostgres embedded = EmbeddedPostgres.builder().start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          embedded.close();
        } catch (IOException e) {
          LOG.warn("stopping the embedded PostgreSQL failed", e);
        }
      }));
      String embeddedUrl = embedded.getJdbcUrl("postgres", "postgres");
      return announce("embedded PostgreSQL " + embeddedUrl + " (no " + URL_VARIABLE + " given, "
          + noEngine.orElse("no Docker engine answered Testcontainers") + ")",
          new TestDatabase(embeddedUrl, null, null));
    } catch (IOException e) {
      throw new UncheckedIOException("no test database: set " + URL_VARIABLE + ", start Docker, or let the "
          + "embedded PostgreSQL binaries run", e);
    }
  }

  /**
   * Why there is obviously no Docker engine to ask, or empty when there may be one: {@code DOCKER_HOST} or
   * {@code TC_HOST} is set, Testcontainers is configured with a {@code docker.host} or {@code tc.host}, a usual Docker
   * socket exists (system, rootless, Docker Desktop, Colima, Rancher Desktop), or the OS is Windows, whose named pipe
   * is not worth probing here.
   */
  private static Optional<String> obviouslyNoDockerEngine() {
    if (System.getenv("DOCKER_HOST") != null || System.getenv("TC_HOST") != null
        || System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows")) {
      return Optional.empty();
    }
    Path home = Path.of(System.getProperty("user.home", "/"));
    Path testcontainersConfig = home.resolve(".testcontainers.properties");
    if (Files.isReadable(testcontainersConfig)) {
      Properties properties = new Properties();
      try (Reader reader = Files.newBufferedReader(testcontainersConfig)) {
        properties.load(reader);
      } catch (IOException e) {
        return Optional.empty();
      }
      if (properties.getProperty("docker.host") != null || properties.getProperty("tc.host") != null) {
        return Optional.empty();
      }
    }
    List<Path> sockets = new ArrayList<>(List.of(Path.of("/var/run/docker.sock"),
        home.resolve(".docker/run/docker.sock"), home.resolve(".docker/desktop/docker.sock"),
        home.resolve(".colima/default/docker.sock"), home.resolve(".rd/docker.sock")));
    String runtimeDir = System.getenv("XDG_RUNTIME_DIR");
    if (runtimeDir != null) {
      sockets.add(Path.of(runtimeDir, "docker.sock"));
    }
    if (sockets.stream().anyMatch(Files::exists)) {
      return Optional.empty();
    }
    return Optional.of("no Docker engine: no DOCKER_HOST, no /var/run/docker.sock nor other Docker socket, so"
        + " Testcontainers was not asked");
  }

  private static boolean dockerAnswers() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("no Docker engine", e);
      return false;
    }
  }

  private static TestDatabase announce(String description, TestDatabase database) {
    System.out.println("session-store JDBC tests use: " + description);
    return database;
  }

  /** A new pool on the database as its admin user. Close it when done. */
  HikariDataSource pool(String name, int maximumSize) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(name);
    config.setJdbcUrl(url);
    if (user != null) {
      config.setUsername(user);
      config.setPassword(password);
    }
    config.setMaximumPoolSize(maximumSize);
    config.setMinimumIdle(0);
    return new HikariDataSource(config);
  }

  /** An unpooled data source connecting as {@code role}, for tests of privileges. */
  PGSimpleDataSource dataSourceAs(String role, String rolePassword) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(url);
    dataSource.setUser(role);
    dataSource.setPassword(rolePassword);
    return dataSource;
  }

  /**
   * The database's JDBC URL with the admin user's credentials in it, and {@code applicationName} so that its
   * connections can be told apart in {@code pg_stat_activity}.
   */
  String urlWithCredentials(String applicationName) {
    StringBuilder full = new StringBuilder(url).append(url.contains("?") ? '&' : '?')
        .append("ApplicationName=").append(applicationName);
    if (user != null) {
      full.append("&user=").append(user).append("&password=").append(password);
    }
    return full.toString();
  }

  /** An unpooled data source connecting as the admin user. */
  public PGSimpleDataSource adminDataSource() {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(url);
    if (user != null) {
      dataSource.setUser(user);
      dataSource.setPassword(password);
    }
    return dataSource;
  }

  /** Runs SQL as the admin user, outside any store. */
  public void execute(String... statements) {
    try (Connection connection = adminDataSource().getConnection();
         Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("test SQL failed: " + String.join("; ", statements), e);
    }
  }

  /** A schema or prefix name no other test uses: {@code base}, the process id and a counter. */
  public static String uniqueName(String base) {
    return base + "_" + ProcessHandle.current().pid() + "_" + NAMES.incrementAndGet();
  }
}
