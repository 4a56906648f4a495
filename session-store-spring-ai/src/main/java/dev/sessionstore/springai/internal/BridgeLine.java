package dev.sessionstore.springai.internal;

import dev.sessionstore.StoreFailureException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.springframework.ai.chat.memory.ChatMemoryRepository;

/**
 * Which of the two Spring AI bridge jars is on the class path, checked when a repository is built: both jars
 * ({@code session-store-spring-ai} for Spring AI 1.x, {@code session-store-spring-ai-2} for 2.x) are built from the
 * same sources and hold the same class names, so two of them, or one built for the other Spring AI line, would fail
 * only later, at the first call that links against the other line, with a {@code LinkageError}. Each jar carries a
 * marker ({@value #MARKER}: its artifact and Spring AI line), read here against the Spring AI on the class path.
 */
public final class BridgeLine {

  /** The marker resource every bridge jar holds. */
  public static final String MARKER = "META-INF/session-store/spring-ai-bridge.properties";

  private BridgeLine() {
  }

  /**
   * Checks the bridge jars visible to this class and the Spring AI line of {@link ChatMemoryRepository}'s jar.
   *
   * @throws StoreFailureException (not retryable) naming the artifact to keep for each Spring AI line, when two
   *                               bridges are on the class path or the one there is built for the other line
   */
  public static void check() {
    check(BridgeLine.class.getClassLoader(), springAiVersion());
  }

  /**
   * Checks the bridge markers {@code loader} finds against {@code springAiVersion} (unknown: the markers only).
   *
   * @throws StoreFailureException as {@link #check()}
   */
  public static void check(ClassLoader loader, Optional<String> springAiVersion) {
    List<Properties> bridges = markers(loader);
    String keep = "keep session-store-spring-ai for Spring AI 1.x (Spring Boot 3) or session-store-spring-ai-2 for"
        + " Spring AI 2.x (Spring Boot 4), not both";
    String springAi = springAiVersion.map(version -> "Spring AI " + version).orElse("Spring AI");
    if (bridges.size() > 1) {
      throw new StoreFailureException(bridges.size() + " Spring AI bridges are on the class path ("
          + String.join(", ", bridges.stream().map(bridge -> bridge.getProperty("artifact")).toList())
          + "), which hold the same classes: " + keep + "; the class path has " + springAi, false, null);
    }
    if (bridges.size() == 1 && springAiVersion.isPresent()) {
      String line = bridges.get(0).getProperty("spring-ai-line");
      String major = springAiVersion.get().split("\\.", 2)[0];
      if (!major.equals(line)) {
        throw new StoreFailureException(bridges.get(0).getProperty("artifact") + " is built for"
            + " Spring AI " + line + ".x, but the class path has " + springAi + ": " + keep, false, null);
      }
    }
  }

  private static List<Properties> markers(ClassLoader loader) {
    List<Properties> found = new ArrayList<>();
    try {
      for (URL marker : Collections.list(loader.getResources(MARKER))) {
        try (InputStream in = marker.openStream()) {
          Properties properties = new Properties();
          properties.load(in);
          found.add(properties);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + MARKER, e);
    }
    return found;
  }

  /** The version of the Spring AI jar holding {@link ChatMemoryRepository}, from its manifest. */
  private static Optional<String> springAiVersion() {
    Package springAi = ChatMemoryRepository.class.getPackage();
    return Optional.ofNullable(springAi == null ? null : springAi.getImplementationVersion());
  }
}
