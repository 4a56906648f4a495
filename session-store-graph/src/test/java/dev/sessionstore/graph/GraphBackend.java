package dev.sessionstore.graph;

import com.zaxxer.hikari.HikariDataSource;
import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.CassandraSessionStore;
import dev.sessionstore.cassandra.cluster.SharedCluster;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyProvider;
import dev.sessionstore.jdbc.JdbcSessionStore;
import dev.sessionstore.jdbc.TestDatabase;
import dev.sessionstore.memory.InMemorySessionStore;
import dev.sessionstore.micrometer.ObservedSessionStore;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A kind of store the graph savers' tests run on (this module's tests and, through its test jar, the runtimes'
 * savers'), plain and behind the decorators. Each {@link Database} is isolated from every other (a heap, a SQLite file,
 * a PostgreSQL schema, a Cassandra namespace);
 * {@link Database#open()} gives a new store instance on it each time, as a restarted process or another pod would get.
 * PostgreSQL is the JDBC module's test database ({@link TestDatabase}: an explicit URL, else a container, else embedded
 * binaries).
 */
public enum GraphBackend {
  MEMORY {
    @Override
    public Database database() {
      SessionStore store = InMemorySessionStore.builder().build();
      // the heap is the database: a new instance on it is the same store
      return new Database(() -> store, () -> { });
    }
  },
  SQLITE {
    @Override
    public Database database() {
      Path folder = temporaryFolder();
      return new Database(() -> JdbcSessionStore.builder().jdbcUrl("jdbc:sqlite:" + folder.resolve("graph.db"))
          .build(), () -> delete(folder));
    }
  },
  POSTGRESQL {
    @Override
    public Database database() {
      TestDatabase postgres = TestDatabase.get();
      String schema = TestDatabase.uniqueName("graph");
      List<HikariDataSource> pools = new ArrayList<>();
      // each instance its own pool, as each pod has
      return new Database(() -> {
        HikariDataSource pool = pool(schema, 4);
        synchronized (pools) {
          pools.add(pool);
        }
        return JdbcSessionStore.builder().dataSource(pool).schema(schema).build();
      }, () -> {
        pools.forEach(HikariDataSource::close);
        postgres.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      });
    }
  },
  /** The in-memory store behind the Micrometer decorator, observations recorded as meters. */
  OBSERVED_MEMORY {
    @Override
    public Database database() {
      SessionStore store = InMemorySessionStore.builder().build();
      ObservationRegistry registry = ObservationRegistry.create();
      registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
      return new Database(() -> ObservedSessionStore.builder(store).registry(registry).build(), () -> { });
    }
  },
  /**
   * A real Cassandra 5.0 cluster started by the Cassandra adapter's test fixture ({@link SharedCluster}: one node, or
   * as many as {@value SharedCluster#NODES} says), a namespace of its own per database; instances alternate between
   * two driver sessions, as two processes would have. Tested only when {@value #CASSANDRA_PROPERTY} is {@code true}
   * ({@link #tested()}), which the {@code cassandra-cluster} Maven profile sets.
   */
  CASSANDRA {
    @Override
    public Database database() {
      String namespace = UUID.randomUUID().toString();
      AtomicInteger instances = new AtomicInteger();
      // the namespace's rows stay in the test keyspace, as the adapter's own tests leave theirs
      return new Database(() -> CassandraSessionStore.builder()
          .session(instances.getAndIncrement() % 2 == 0 ? SharedCluster.session() : SharedCluster.peerSession())
          .keyspace(CASSANDRA_KEYSPACE).namespace(namespace).replicationFactor(SharedCluster.replicationFactor())
          .build(), () -> { });
    }
  },
  /** SQLite behind the encrypting decorator: checkpoint states are encrypted at rest. */
  ENCRYPTED_SQLITE {
    @Override
    public Database database() {
      Path folder = temporaryFolder();
      return new Database(() -> EncryptingSessionStore.builder(JdbcSessionStore.builder()
          .jdbcUrl("jdbc:sqlite:" + folder.resolve("graph.db")).build()).keys(KEYS).build(), () -> delete(folder));
    }
  };

  private static final KeyProvider KEYS = KeyProvider.of("graph-test-key", new byte[] {
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
      31, 32});

  /** The system property that adds {@link #CASSANDRA} to {@link #tested()}. */
  public static final String CASSANDRA_PROPERTY = "session-store.graph.cassandra";
  private static final String CASSANDRA_KEYSPACE = "session_store_graph";

  /**
   * The backends this test run covers, for {@code @MethodSource("dev.sessionstore.graph.GraphBackend#tested")}: all,
   * {@link #CASSANDRA} only when {@value #CASSANDRA_PROPERTY} is {@code true} (it starts a Cassandra cluster, about
   * 20 s of two CPUs per test JVM and 1 GB of memory per node).
   */
  public static Stream<GraphBackend> tested() {
    return Stream.of(values()).filter(backend -> backend != CASSANDRA || Boolean.getBoolean(CASSANDRA_PROPERTY));
  }

  /** A new, empty, isolated database of this kind. */
  public abstract Database database();

  /** A pool of at most {@code size} connections on the test PostgreSQL, named after {@code name}. */
  public static HikariDataSource pool(String name, int size) {
    HikariDataSource pool = new HikariDataSource();
    pool.setPoolName(name);
    pool.setDataSource(TestDatabase.get().adminDataSource());
    pool.setMaximumPoolSize(size);
    pool.setMinimumIdle(0);
    return pool;
  }

  private static Path temporaryFolder() {
    try {
      return Files.createTempDirectory("session-store-graph-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  /** Opens store instances on one database and closes them, then drops the database. */
  public static final class Database implements AutoCloseable {

    private final Supplier<SessionStore> opener;
    private final Cleanup cleanup;
    private final List<SessionStore> opened = new ArrayList<>();

    Database(Supplier<SessionStore> opener, Cleanup cleanup) {
      this.opener = opener;
      this.cleanup = cleanup;
    }

    /** A new store instance on this database. */
    public synchronized SessionStore open() {
      SessionStore store = opener.get();
      opened.add(store);
      return store;
    }

    @Override
    public synchronized void close() throws Exception {
      opened.forEach(SessionStore::close);
      cleanup.run();
    }
  }

  /** Drops what a database left behind. */
  interface Cleanup {
    void run() throws Exception;
  }
}
