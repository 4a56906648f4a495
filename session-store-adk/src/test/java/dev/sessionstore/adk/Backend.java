package dev.sessionstore.adk;

import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.memory.InMemorySessionStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A kind of store the ADK tests run on. Each {@link Database} it opens is isolated from every other (a PostgreSQL
 * schema, a SQLite file, a heap); {@link Database#open()} gives a new store instance on that database each time, as a
 * restarted process would get.
 */
enum Backend {
  MEMORY {
    @Override
    Database database() {
      SessionStore store = InMemorySessionStore.builder().build();
      // the heap is the database: a new instance on it is the same store
      return new Database(() -> store, () -> { });
    }
  },
  POSTGRESQL {
    @Override
    Database database() {
      String url = PostgresUrl.get();
      String schema = "adk_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
      return new Database(() -> JdbcSessionStore.builder().jdbcUrl(url).schema(schema).build(), () -> {
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement()) {
          statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
      });
    }
  },
  SQLITE {
    @Override
    Database database() {
      try {
        Path folder = Files.createTempDirectory("session-store-adk-");
        Path file = folder.resolve("adk.db");
        return new Database(() -> JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + file).build(), () -> {
          try (Stream<Path> files = Files.list(folder)) {
            for (Path path : files.toList()) {
              Files.deleteIfExists(path);
            }
          }
          Files.deleteIfExists(folder);
        });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  /** A new, empty, isolated database of this kind. */
  abstract Database database();

  /** Every backend, for {@code @MethodSource}. */
  static Stream<Backend> all() {
    return Stream.of(values());
  }

  /** Opens store instances on one database and closes them, then drops the database. */
  static final class Database implements AutoCloseable {

    private final Opener opener;
    private final Cleanup cleanup;
    private final List<SessionStore> opened = new ArrayList<>();

    Database(Opener opener, Cleanup cleanup) {
      this.opener = opener;
      this.cleanup = cleanup;
    }

    /** A new store instance on this database. */
    synchronized SessionStore open() {
      SessionStore store = opener.open();
      opened.add(store);
      return store;
    }

    /** A service over a new store instance on this database. */
    SessionStoreSessionService service() {
      return SessionStoreSessionService.builder(open()).build();
    }

    @Override
    public synchronized void close() throws Exception {
      opened.forEach(SessionStore::close);
      cleanup.run();
    }
  }

  interface Opener {
    SessionStore open();
  }

  interface Cleanup {
    void run() throws IOException, SQLException;
  }

  /**
   * The PostgreSQL the tests use: {@code SESSION_STORE_TEST_JDBC_URL} (or the {@code sessionstore.test.jdbcUrl}
   * property), else an embedded one started once for this JVM. The choice is printed.
   */
  static final class PostgresUrl {

    private static String url;

    private PostgresUrl() {
    }

    static synchronized String get() {
      if (url == null) {
        String configured = System.getProperty("sessionstore.test.jdbcUrl",
            System.getenv("SESSION_STORE_TEST_JDBC_URL"));
        if (configured != null && !configured.isBlank()) {
          url = configured;
          System.out.println("session-store ADK tests use: explicit URL "
              + configured.replaceAll("password=[^&]*", "password=***"));
        } else {
          try {
            EmbeddedPostgres embedded = EmbeddedPostgres.builder().start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
              try {
                embedded.close();
              } catch (IOException e) {
                System.err.println("stopping the embedded PostgreSQL failed: " + e);
              }
            }));
            url = embedded.getJdbcUrl("postgres", "postgres");
            System.out.println("session-store ADK tests use: embedded PostgreSQL " + url);
          } catch (IOException e) {
            throw new UncheckedIOException("no SESSION_STORE_TEST_JDBC_URL and no embedded PostgreSQL", e);
          }
        }
      }
      return url;
    }
  }
}
