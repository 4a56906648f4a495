package dev.sessionstore.adk;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.TestDatabase;
import dev.sessionstore.memory.InMemorySessionStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A kind of store the ADK tests run on. Each {@link Database} it opens is isolated from every other (a PostgreSQL
 * schema, a SQLite file, a heap); {@link Database#open()} gives a new store instance on that database each time, as a
 * restarted process would get. PostgreSQL is the JDBC module's test database ({@link TestDatabase}: an explicit URL,
 * else a container, else embedded binaries).
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
      TestDatabase postgres = TestDatabase.get();
      String schema = TestDatabase.uniqueName("adk");
      HikariDataSource pool = new HikariDataSource();
      pool.setDataSource(postgres.adminDataSource());
      pool.setMaximumPoolSize(10);
      return new Database(() -> JdbcSessionStore.builder().dataSource(pool).schema(schema).build(), () -> {
        pool.close();
        postgres.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
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

    /** A memory service over a new store instance on this database. */
    SessionStoreMemoryService memory() {
      return SessionStoreMemoryService.builder(open()).build();
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
}
