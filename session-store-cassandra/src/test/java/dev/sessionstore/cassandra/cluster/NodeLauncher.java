package dev.sessionstore.cassandra.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single {@link CassandraCluster} node for a build step that is not a test JVM, such as the consumer projects of
 * {@code session-store-consumers}: one process starts the node and keeps it, another asks it to stop, and both meet in a
 * folder of files.
 *
 * <ul>
 *   <li>{@code start <folder> <host>} starts one node on 127.0.0.{@code host}, writes {@code <folder>/contact-point}
 *       ({@code 127.0.0.host:9042}) once the node answers CQL (or {@code <folder>/failed} with the reason, and exits
 *       with 1), then waits for {@code <folder>/stop}, stops the node, writes {@code <folder>/stopped} and exits. Killed
 *       before that (the build that started it ends), the fixture's shutdown hook stops the node all the same.</li>
 *   <li>{@code stop <folder>} writes {@code <folder>/stop} and waits up to a minute for {@code stopped} (exits with 1
 *       if it does not come, or at once with 0 when no node was started in the folder).</li>
 * </ul>
 *
 * <p>Only the node's own process is ever stopped (the fixture stops processes by their handles). The system properties
 * {@link ServerClasspath} reads ({@code cassandra.version}, {@code session-store.root}, {@code cassandra.build.dir})
 * must be set.
 */
public final class NodeLauncher {

  private static final Logger LOG = LoggerFactory.getLogger(NodeLauncher.class);

  private static final String CONTACT_POINT = "contact-point";
  private static final String FAILED = "failed";
  private static final String STOP = "stop";
  private static final String STOPPED = "stopped";
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration STOP_WAIT = Duration.ofMinutes(1);

  private NodeLauncher() {
  }

  /**
   * Runs {@code start <folder> <host>} or {@code stop <folder>} as described above.
   *
   * @param arguments the command and its arguments
   */
  public static void main(String[] arguments) {
    if (arguments.length == 3 && arguments[0].equals("start")) {
      System.exit(start(Path.of(arguments[1]), Integer.parseInt(arguments[2])));
    } else if (arguments.length == 2 && arguments[0].equals("stop")) {
      System.exit(stop(Path.of(arguments[1])));
    } else {
      System.err.println("usage: NodeLauncher start <folder> <host> | stop <folder>");
      System.exit(2);
    }
  }

  private static int start(Path folder, int host) {
    try {
      Files.createDirectories(folder);
      for (String name : new String[] {CONTACT_POINT, FAILED, STOP, STOPPED}) {
        Files.deleteIfExists(folder.resolve(name));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    CassandraCluster cluster;
    try {
      cluster = CassandraCluster.start(1, host);
    } catch (RuntimeException e) {
      write(folder.resolve(FAILED), String.valueOf(e));
      LOG.error("the cassandra node did not start", e);
      return 1;
    }
    try (cluster) {
      var point = cluster.contactPoints().get(0);
      write(folder.resolve(CONTACT_POINT), point.getHostString() + ":" + point.getPort());
      LOG.info("cassandra node {} up in {} ms (pid {})", point, cluster.startTimes().get(0).toMillis(), cluster.pid(1));
      while (!Files.exists(folder.resolve(STOP))) {
        sleep();
      }
    }
    write(folder.resolve(STOPPED), "");
    return 0;
  }

  private static int stop(Path folder) {
    if (!Files.isDirectory(folder)) {
      return 0;
    }
    write(folder.resolve(STOP), "");
    long deadline = System.nanoTime() + STOP_WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(folder.resolve(STOPPED)) || Files.exists(folder.resolve(FAILED))) {
        return 0;
      }
      sleep();
    }
    System.err.println("the cassandra node of " + folder + " did not report stopping within " + STOP_WAIT);
    return 1;
  }

  /** Writes {@code file} whole or not at all (a reader polling for it never sees it half written). */
  private static void write(Path file, String text) {
    try {
      Path partial = file.resolveSibling(file.getFileName() + ".partial");
      Files.writeString(partial, text, StandardCharsets.UTF_8);
      Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the cassandra node runs", e);
    }
  }
}
