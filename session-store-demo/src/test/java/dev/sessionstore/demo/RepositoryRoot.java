package dev.sessionstore.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository this module is built in: the parent folder of the module's own folder (Surefire's working
 * directory). The tests that check the repository's documents use it, and fail, never skip, when it is not there.
 */
final class RepositoryRoot {

  private RepositoryRoot() {
  }

  /**
   * The repository's root folder, checked to hold the reactor's {@code pom.xml} listing this module and the README.
   *
   * @throws AssertionError when the module's parent folder is not the repository root
   */
  static Path find() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    assertThat(root).as("the parent folder of session-store-demo (the tests run from the module's folder)").isNotNull();
    Path pom = root.resolve("pom.xml");
    assertThat(pom).as("the repository root's pom.xml, expected at " + pom).isRegularFile();
    assertThat(Files.readString(pom)).as("the root pom.xml at " + pom + " lists session-store-demo")
        .contains("<module>session-store-demo</module>");
    assertThat(root.resolve("README.md")).as("the repository's README.md").isRegularFile();
    return root;
  }
}
