package dev.sessionstore.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sessionstore.StoreFailureException;
import dev.sessionstore.memory.InMemorySessionStore;
import dev.sessionstore.springai.internal.BridgeLine;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.memory.ChatMemoryRepository;

/**
 * The two bridge jars hold the same classes: a class path with both, or with the one built for the other Spring AI
 * line, fails when a repository is built, naming the artifact to keep, instead of with a LinkageError later. Runs in
 * both bridge modules (shared sources), each with its own jar's marker and its own Spring AI line.
 */
class BridgeLineTest {

  @TempDir
  Path folder;

  @Test
  void thisBridgeOnItsOwnSpringAiLineBuildsARepository() {
    assertThat(thisBridge().getProperty("spring-ai-line")).isEqualTo(springAiMajor());

    assertThatNoException().isThrownBy(
        () -> SessionStoreChatMemoryRepository.builder(InMemorySessionStore.builder().build()).build());
  }

  @Test
  void bothBridgesFailNamingWhichToKeep() throws IOException {
    String other = "1".equals(springAiMajor()) ? "session-store-spring-ai-2" : "session-store-spring-ai";
    Path marker = folder.resolve(BridgeLine.MARKER);
    Files.createDirectories(marker.getParent());
    Files.writeString(marker, "artifact=" + other + "\nspring-ai-line=" + ("1".equals(springAiMajor()) ? 2 : 1));

    try (URLClassLoader withBoth = new URLClassLoader(new URL[] {folder.toUri().toURL()},
        BridgeLine.class.getClassLoader())) {
      assertThatThrownBy(() -> BridgeLine.check(withBoth, Optional.of(springAiVersion())))
          .isInstanceOf(StoreFailureException.class)
          .hasMessageContaining("2 Spring AI bridges are on the class path")
          .hasMessageContaining(thisBridge().getProperty("artifact"))
          .hasMessageContaining(other)
          .hasMessageContaining("keep session-store-spring-ai for Spring AI 1.x (Spring Boot 3) or"
              + " session-store-spring-ai-2 for Spring AI 2.x (Spring Boot 4), not both")
          .hasMessageContaining("the class path has Spring AI " + springAiVersion())
          .matches(failure -> !((StoreFailureException) failure).isRetryable());
    }
  }

  @Test
  void theBridgeOfTheOtherSpringAiLineFailsNamingWhichToKeep() {
    String otherLine = "1".equals(springAiMajor()) ? "2.0.1" : "1.1.2";

    assertThatThrownBy(() -> BridgeLine.check(BridgeLine.class.getClassLoader(), Optional.of(otherLine)))
        .isInstanceOf(StoreFailureException.class)
        .hasMessageContaining(thisBridge().getProperty("artifact") + " is built for Spring AI " + springAiMajor()
            + ".x, but the class path has Spring AI " + otherLine)
        .hasMessageContaining("keep session-store-spring-ai for Spring AI 1.x");
  }

  /**
   * This bridge on a class path whose Spring AI model jar is the other line's (a user who picked the wrong bridge):
   * the check, run in a class loader of this module's test class path with that jar in place of its own, fails.
   */
  @Test
  void thisBridgeOnTheOtherLinesSpringAiJarFails() throws Exception {
    Path otherModel = Path.of(System.getProperty("sessionstore.test.otherSpringAiModel"));
    assertThat(otherModel).exists();
    List<URL> urls = new ArrayList<>();
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    for (String entry : classPath.split(File.pathSeparator)) {
      if (!entry.replace(File.separatorChar, '/').contains("/org/springframework/ai/spring-ai-model/")) {
        urls.add(Path.of(entry).toUri().toURL());
      }
    }
    assertThat(urls).hasSize(classPath.split(File.pathSeparator).length - 1);
    urls.add(otherModel.toUri().toURL());

    try (URLClassLoader wrongLine = new URLClassLoader(urls.toArray(URL[]::new),
        ClassLoader.getPlatformClassLoader())) {
      Method check = wrongLine.loadClass(BridgeLine.class.getName()).getMethod("check");
      assertThatThrownBy(() -> check.invoke(null))
          .isInstanceOf(InvocationTargetException.class)
          .cause()
          .hasMessageContaining(thisBridge().getProperty("artifact") + " is built for Spring AI " + springAiMajor()
              + ".x, but the class path has Spring AI " + otherModel.getFileName().toString()
              .replace("spring-ai-model-", "").replace(".jar", ""))
          .hasMessageContaining("keep session-store-spring-ai for Spring AI 1.x");
    }
  }

  private static Properties thisBridge() {
    try (InputStream in = BridgeLine.class.getClassLoader().getResourceAsStream(BridgeLine.MARKER)) {
      Properties properties = new Properties();
      properties.load(in);
      return properties;
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String springAiVersion() {
    return ChatMemoryRepository.class.getPackage().getImplementationVersion();
  }

  private static String springAiMajor() {
    return springAiVersion().split("\\.")[0];
  }
}
