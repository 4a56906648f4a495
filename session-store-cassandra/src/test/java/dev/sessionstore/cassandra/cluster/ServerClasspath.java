package dev.sessionstore.cassandra.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The classpath of a Cassandra node JVM: {@code org.apache.cassandra:cassandra-all} at the version the root pom pins
 * ({@code cassandra.version}, passed by surefire) with its dependencies, resolved from Maven Central by the project's
 * Maven wrapper on {@code src/test/cassandra/pom.xml}. It stays apart from the test classpath (the server's netty,
 * guava and driver versions never meet the adapter's) and is cached in the module's build directory per version.
 */
final class ServerClasspath {

  private ServerClasspath() {
  }

  /** The resolved classpath, from the cache when this version was resolved before. */
  static synchronized String resolve() {
    String version = property("cassandra.version");
    Path root = Path.of(property("session-store.root"));
    Path buildDir = Path.of(property("cassandra.build.dir"));
    Path cached = buildDir.resolve("cassandra-" + version + ".classpath");
    try {
      if (!Files.exists(cached)) {
        Files.createDirectories(buildDir);
        Path pom = root.resolve("session-store-cassandra/src/test/cassandra/pom.xml");
        Path log = buildDir.resolve("cassandra-" + version + "-resolve.log");
        Process maven = new ProcessBuilder(List.of(root.resolve("mvnw").toString(), "-B", "-q", "-ntp",
            "-f", pom.toString(), "-Dcassandra.version=" + version,
            "dependency:build-classpath", "-Dmdep.outputFile=" + cached))
            .directory(root.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
        if (!maven.waitFor(10, TimeUnit.MINUTES) || maven.exitValue() != 0) {
          maven.destroyForcibly();
          Files.deleteIfExists(cached);
          throw new IllegalStateException("cannot resolve cassandra-all " + version + "; see " + log);
        }
      }
      String classpath = Files.readString(cached, StandardCharsets.UTF_8).trim();
      if (classpath.isEmpty()) {
        throw new IllegalStateException("empty classpath for cassandra-all " + version + " in " + cached);
      }
      return classpath;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while resolving cassandra-all", e);
    }
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException("system property " + name + " is not set: run the tests through Maven");
    }
    return value;
  }
}
