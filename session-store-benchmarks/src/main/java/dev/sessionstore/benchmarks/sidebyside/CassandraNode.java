package dev.sessionstore.benchmarks.sidebyside;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.sessionstore.SessionStore;
import dev.sessionstore.cassandra.CassandraSessionStore;
import dev.sessionstore.cassandra.cluster.CassandraCluster;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * The Cassandra the Cassandra measures run on, one per harness run: the node named by {@value #CONTACT_POINT}
 * ({@code host:port} on loopback, datacenter {@code datacenter1}), else a single node the adapter's test fixture
 * starts from {@code cassandra-all} (resolved from Maven Central by the repository's Maven wrapper, so the harness
 * runs from the repository's root) and stops when the JVM exits. Both sides of a measure share one driver session and
 * the library's tables in one keyspace, each in a namespace of its own.
 */
final class CassandraNode {

  /** The environment variable naming an external node, {@code 127.0.0.1:9042}. */
  static final String CONTACT_POINT = "SESSION_STORE_BENCH_CASSANDRA";
  static final String KEYSPACE = "session_store_bench";

  private static CassandraNode node;

  private final CqlSession session;
  private final CassandraCluster cluster;
  private final int replicationFactor;
  private final String description;

  private CassandraNode(CqlSession session, CassandraCluster cluster, int replicationFactor, String description) {
    this.session = session;
    this.cluster = cluster;
    this.replicationFactor = replicationFactor;
    this.description = description;
  }

  /** The node of this run, started or connected on first use. */
  static synchronized CassandraNode get() {
    if (node == null) {
      String given = System.getenv(CONTACT_POINT);
      node = given == null || given.isBlank() ? started() : external(given.strip());
      System.out.println("Cassandra measures on " + node.description);
    }
    return node;
  }

  private static CassandraNode external(String hostAndPort) {
    int colon = hostAndPort.lastIndexOf(':');
    InetSocketAddress address = colon < 0 ? new InetSocketAddress(hostAndPort, CassandraCluster.CQL_PORT)
        : new InetSocketAddress(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    InetAddress resolved = address.getAddress();
    if (resolved == null || !resolved.isLoopbackAddress()) {
      throw new IllegalArgumentException(CONTACT_POINT + "=" + hostAndPort + ": the benchmarks use loopback only");
    }
    CqlSession session = open(List.of(address));
    int nodes = session.getMetadata().getNodes().size();
    return new CassandraNode(session, null, Math.min(3, nodes), "the node at " + hostAndPort + " (" + nodes
        + " node(s), replication factor " + Math.min(3, nodes) + ")");
  }

  private static CassandraNode started() {
    setDefault("cassandra.version", bundledVersion());
    setDefault("session-store.root", Path.of("").toAbsolutePath().toString());
    setDefault("cassandra.build.dir", Path.of("session-store-benchmarks", "target").toAbsolutePath().toString());
    CassandraCluster cluster = CassandraCluster.start(1);
    return new CassandraNode(open(cluster.contactPoints()), cluster, 1, "a single Cassandra " + System.getProperty(
        "cassandra.version") + " node started by the harness (512 MB heap, commitlog_sync periodic), up in "
        + cluster.startTimes().get(0).toSeconds() + " s");
  }

  /**
   * Closes the driver session and stops the node the harness started, if any measure used one: the driver's threads
   * would otherwise keep the JVM running.
   */
  static synchronized void closeIfUsed() {
    if (node != null) {
      node.session.close();
      if (node.cluster != null) {
        node.cluster.close();
      }
      node = null;
    }
  }

  private static CqlSession open(List<InetSocketAddress> points) {
    return CqlSession.builder().addContactPoints(points).withLocalDatacenter("datacenter1").build();
  }

  private static void setDefault(String property, String value) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, value);
    }
  }

  private static String bundledVersion() {
    try (InputStream in = CassandraNode.class.getResourceAsStream("cassandra.properties")) {
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("cassandra.version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What the measures ran on, for the report. */
  String description() {
    return description;
  }

  /** The shared driver session. */
  CqlSession session() {
    return session;
  }

  /** A new, empty namespace name. */
  static String namespace(String purpose) {
    return purpose + "-" + UUID.randomUUID();
  }

  /** A library store in {@code namespace}, on the shared driver session, with its default consistency levels. */
  SessionStore store(String namespace) {
    return CassandraSessionStore.builder().session(session).keyspace(KEYSPACE).namespace(namespace)
        .replicationFactor(replicationFactor).build();
  }
}
