package dev.sessionstore.cassandra.cluster;

import com.datastax.oss.driver.api.core.CqlSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Cassandra cluster of 1 or 3 nodes for tests: each node is a separate JVM running
 * {@code org.apache.cassandra.service.CassandraDaemon} from {@code cassandra-all} (the version the build pins,
 * resolved from Maven Central by {@link ServerClasspath}), bound to its own loopback address (127.0.0.1, .2, .3) with
 * a fixed token (another range of loopback addresses on request), a 512 MB heap and the Java 17 options of Cassandra's own {@code jvm17-server.options}, configured by
 * a {@code cassandra.yaml} generated into a temporary directory.
 *
 * <p>{@link #start} returns once every node answers CQL and sees the others up. {@link #close()} stops exactly the
 * processes this fixture started (by their handles, never by name) and deletes the directory; a shutdown hook does the
 * same if the test JVM exits without closing (a failed test, an interrupted run). Nodes can be killed and restarted
 * one by one ({@link #kill}, {@link #restart}) for fault tests.
 *
 * <p>Starting nodes is CPU-heavy (a first node takes ~15 s on a 2-core machine, each further node as long again):
 * share one cluster per test JVM where possible.
 */
public final class CassandraCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CassandraCluster.class);

  /** The CQL port of every node (each node has its own loopback address). */
  public static final int CQL_PORT = 9042;

  private static final int STORAGE_PORT = 7000;
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  /** Cassandra's conf/jvm17-server.options (5.0), GC and JPMS settings, as the server's own start script applies. */
  private static final List<String> JVM17_SERVER_OPTIONS = List.of(
      "-XX:+UseG1GC", "-XX:+ParallelRefProcEnabled", "-XX:MaxTenuringThreshold=1", "-XX:G1HeapRegionSize=16m",
      "-XX:G1RSetUpdatingPauseTimePercent=5", "-XX:MaxGCPauseMillis=300", "-XX:InitiatingHeapOccupancyPercent=70",
      "-Djdk.attach.allowAttachSelf=true",
      "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
      "--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
      "--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
      "--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
      "--add-exports", "java.sql/java.sql=ALL-UNNAMED",
      "--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
      "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
      "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
      "--add-exports", "jdk.attach/sun.tools.attach=ALL-UNNAMED",
      "--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
      "--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
      "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
      "--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
      "--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
      "--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
      "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
      "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens", "java.base/java.io=ALL-UNNAMED",
      "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens", "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
      "--add-opens", "java.base/java.lang=ALL-UNNAMED",
      "--add-opens", "java.base/java.util=ALL-UNNAMED",
      "-Dio.netty.tryReflectionSetAccessible=true",
      "-Dio.netty.allocator.useCacheForAllThreads=true",
      "-Dio.netty.allocator.maxOrder=11");

  private final Path directory;
  private final String classpath;
  private final List<Node> nodes = new ArrayList<>();
  private final Thread shutdownHook;
  private final List<Duration> startTimes = new ArrayList<>();

  private final int firstHost;

  private CassandraCluster(Path directory, String classpath, int size, int firstHost) {
    this.directory = directory;
    this.classpath = classpath;
    this.firstHost = firstHost;
    for (int i = 1; i <= size; i++) {
      nodes.add(new Node(i, size));
    }
    this.shutdownHook = new Thread(this::stopAll, "cassandra-cluster-shutdown");
  }

  /**
   * Starts a cluster of {@code size} nodes (1 or 3), one after the other, and returns when each answers CQL and sees
   * every started node up. On failure every node started so far is stopped.
   *
   * @throws IllegalStateException if a node does not come up within three minutes (its log is named)
   */
  public static CassandraCluster start(int size) {
    return start(size, 1);
  }

  /**
   * Like {@link #start(int)}, with the nodes on 127.0.0.{@code firstHost} and the next addresses, so that a second
   * cluster can run beside one on 127.0.0.1.
   *
   * @throws IllegalStateException if something already listens on a node's CQL port
   */
  public static CassandraCluster start(int size, int firstHost) {
    if (size != 1 && size != 3) {
      throw new IllegalArgumentException("a test cluster has 1 or 3 nodes, not " + size);
    }
    String classpath = ServerClasspath.resolve();
    Path directory;
    try {
      directory = Files.createTempDirectory("cassandra-cluster-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    CassandraCluster cluster = new CassandraCluster(directory, classpath, size, firstHost);
    for (Node node : cluster.nodes) {
      if (portOpen(node.address())) {
        throw new IllegalStateException("something already listens on " + node.address() + ":" + CQL_PORT
            + "; a test cluster needs its addresses free");
      }
    }
    Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
    try {
      for (Node node : cluster.nodes) {
        long started = System.nanoTime();
        node.start();
        cluster.awaitUp(node);
        cluster.startTimes.add(Duration.ofNanos(System.nanoTime() - started));
        LOG.info("cassandra node {} up in {} ms (pid {})", node.address(),
            cluster.startTimes.get(cluster.startTimes.size() - 1).toMillis(), node.pid());
      }
      return cluster;
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /** The loopback addresses of the nodes and their CQL port, node 1 first. */
  public List<InetSocketAddress> contactPoints() {
    return nodes.stream().map(node -> new InetSocketAddress(node.address(), CQL_PORT)).toList();
  }

  /** How many nodes the cluster has. */
  public int size() {
    return nodes.size();
  }

  /** How long each node took from its process start to answering CQL, in start order. */
  public List<Duration> startTimes() {
    return List.copyOf(startTimes);
  }

  /** The process id of node {@code index} (1-based), or -1 when it is not running. */
  public long pid(int index) {
    return nodes.get(index - 1).pid();
  }

  /** Kills node {@code index} (1-based) at once, as {@code kill -9} does: no flush, no drain. */
  public void kill(int index) {
    nodes.get(index - 1).kill();
  }

  /** Starts node {@code index} (1-based) again on its data and waits until it answers CQL. */
  public void restart(int index) {
    Node node = nodes.get(index - 1);
    node.start();
    awaitUp(node);
  }

  private void awaitUp(Node node) {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!node.isAlive()) {
        throw new IllegalStateException("cassandra node " + node.address() + " exited with "
            + node.exitValue() + "; see " + node.log());
      }
      if (portOpen(node.address()) && seesAllUp(node)) {
        return;
      }
      sleep(Duration.ofMillis(500));
    }
    throw new IllegalStateException("cassandra node " + node.address() + " did not answer CQL within "
        + START_TIMEOUT + "; see " + node.log());
  }

  /** Whether {@code node} answers CQL and lists every other running node of the cluster as a peer. */
  private boolean seesAllUp(Node node) {
    try (CqlSession session = CqlSession.builder()
        .addContactPoint(new InetSocketAddress(node.address(), CQL_PORT))
        .withLocalDatacenter("datacenter1")
        .build()) {
      long running = nodes.stream().filter(Node::isAlive).count();
      long peers = session.execute("SELECT peer FROM system.peers_v2").all().size();
      return peers >= running - 1;
    } catch (RuntimeException notYet) {
      return false;
    }
  }

  private static boolean portOpen(String address) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address, CQL_PORT), 500);
      return true;
    } catch (IOException notYet) {
      return false;
    }
  }

  /** Stops every node this fixture started (gracefully, then forcibly) and deletes the cluster's directory. */
  @Override
  public void close() {
    stopAll();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the JVM is exiting: the hook runs or ran stopAll anyway
    }
  }

  private synchronized void stopAll() {
    nodes.forEach(Node::stop);
    deleteTree(directory);
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      LOG.warn("could not delete {}", root, e);
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for cassandra", e);
    }
  }

  /** One node: its address, token, directory and, while it runs, its process. */
  private final class Node {

    private final int index;
    private final int clusterSize;
    private Process process;

    Node(int index, int clusterSize) {
      this.index = index;
      this.clusterSize = clusterSize;
    }

    String address() {
      return "127.0.0." + (firstHost + index - 1);
    }

    Path home() {
      return directory.resolve("node" + index);
    }

    Path log() {
      return home().resolve("logs").resolve("system.log");
    }

    /** Evenly spread Murmur3 tokens around 0 (1 node: 0; 3 nodes: -2^64/3, 0, 2^64/3): equal shares. */
    long token() {
      long step = Long.divideUnsigned(-1L, clusterSize);
      return (index - 1 - (clusterSize - 1) / 2) * step;
    }

    synchronized void start() {
      if (process != null && process.isAlive()) {
        throw new IllegalStateException("node " + address() + " is running");
      }
      try {
        Files.createDirectories(home().resolve("logs"));
        Path yaml = home().resolve("cassandra.yaml");
        Files.writeString(yaml, yaml(), StandardCharsets.UTF_8);
        Path logback = home().resolve("logback.xml");
        Files.writeString(logback, logback(), StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xms512m", "-Xmx512m", "-Xss256k", "-XX:+AlwaysPreTouch"));
        command.addAll(JVM17_SERVER_OPTIONS);
        command.addAll(List.of(
            "-Dcassandra.config=" + yaml.toUri(),
            "-Dcassandra.storagedir=" + home(),
            "-Dcassandra.logdir=" + home().resolve("logs"),
            "-Dlogback.configurationFile=" + logback,
            "-Dcassandra-foreground=yes",
            "-Dcassandra.skip_wait_for_gossip_to_settle=0",
            "-Dcassandra.ring_delay_ms=" + (clusterSize == 1 ? 0 : 5000),
            "-Dcassandra.superuser_setup_delay_ms=0",
            "-Dcassandra.consistent.rangemovement=false",
            "-cp", classpath,
            "org.apache.cassandra.service.CassandraDaemon"));
        process = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(home().resolve("logs").resolve("stdout.log").toFile()))
            .start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start cassandra node " + address(), e);
      }
    }

    synchronized boolean isAlive() {
      return process != null && process.isAlive();
    }

    synchronized long pid() {
      return isAlive() ? process.pid() : -1;
    }

    synchronized int exitValue() {
      return process.exitValue();
    }

    synchronized void kill() {
      if (isAlive()) {
        process.destroyForcibly();
        waitFor(process);
      }
    }

    synchronized void stop() {
      if (!isAlive()) {
        return;
      }
      process.destroy();
      if (!waitFor(process)) {
        process.destroyForcibly();
        waitFor(process);
      }
    }

    private boolean waitFor(Process running) {
      try {
        return running.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        running.destroyForcibly();
        return false;
      }
    }

    private String yaml() {
      Path home = home();
      return String.join("\n",
          "cluster_name: session-store-test",
          "num_tokens: 1",
          "initial_token: " + token(),
          "allocate_tokens_for_local_replication_factor: null",
          "auto_bootstrap: false",
          "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
          "endpoint_snitch: SimpleSnitch",
          "listen_address: " + address(),
          "rpc_address: " + address(),
          "storage_port: " + STORAGE_PORT,
          "native_transport_port: " + CQL_PORT,
          "start_native_transport: true",
          "seed_provider:",
          "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
          "    parameters:",
          "      - seeds: \"127.0.0." + firstHost + ":" + STORAGE_PORT + "\"",
          "data_file_directories:",
          "  - " + home.resolve("data"),
          "commitlog_directory: " + home.resolve("commitlog"),
          "saved_caches_directory: " + home.resolve("saved_caches"),
          "hints_directory: " + home.resolve("hints"),
          "cdc_raw_directory: " + home.resolve("cdc_raw"),
          "commitlog_sync: periodic",
          "commitlog_sync_period: 10000ms",
          // a mutation may be half a segment: 32 MiB, room for a checkpoint of Limits.MAX_CHECKPOINT_BYTES (16 MiB),
          // and so may one CQL message
          "commitlog_segment_size: 64MiB",
          "native_transport_max_message_size: 48MiB",
          // which must stay below the in-flight reserves (by default 10 % and, per client address, 2.5 % of the heap)
          "native_transport_max_request_data_in_flight: 128MiB",
          "native_transport_max_request_data_in_flight_per_ip: 64MiB",
          "paxos_variant: v2",
          "authenticator: AllowAllAuthenticator",
          "authorizer: AllowAllAuthorizer",
          "concurrent_compactors: 1",
          "concurrent_reads: 8",
          "concurrent_writes: 8",
          "concurrent_counter_writes: 8",
          "memtable_heap_space: 64MiB",
          "memtable_offheap_space: 64MiB",
          "key_cache_size: 8MiB",
          "dynamic_snitch: false",
          "hinted_handoff_enabled: true",
          "");
    }

    private String logback() {
      return """
          <configuration>
            <appender name="FILE" class="ch.qos.logback.core.FileAppender">
              <file>%s</file>
              <encoder><pattern>%%-5level [%%thread] %%date{ISO8601} %%F:%%L - %%msg%%n</pattern></encoder>
            </appender>
            <root level="INFO"><appender-ref ref="FILE"/></root>
          </configuration>
          """.formatted(log());
    }
  }
}
