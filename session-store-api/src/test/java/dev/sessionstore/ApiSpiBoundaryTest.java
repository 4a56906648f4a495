package dev.sessionstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The user API does not depend on the adapter SPI: no compiled class of {@code dev.sessionstore} (nested classes
 * included) names a type of {@code dev.sessionstore.spi}. A class's constant pool holds, in UTF-8, the internal name
 * of every class it refers to (calls, fields, signatures, imports that are used), so reading its bytes for
 * {@code dev/sessionstore/spi/} finds every real reference, fully qualified or imported.
 */
class ApiSpiBoundaryTest {

  private static final byte[] SPI = "dev/sessionstore/spi/".getBytes(StandardCharsets.UTF_8);

  @Test
  void noApiClassRefersToTheSpiPackage() throws IOException {
    List<Path> apiClasses = classesOf("dev/sessionstore");

    assertThat(apiClasses).as("compiled API classes found").hasSizeGreaterThan(40)
        .anySatisfy(path -> assertThat(path.getFileName()).hasToString("Json.class"));
    assertThat(apiClasses.stream().filter(ApiSpiBoundaryTest::refersToSpi).map(Path::getFileName).toList())
        .as("API classes referring to dev.sessionstore.spi").isEmpty();
  }

  @Test
  void theScanFindsAReferenceWhereOneExists() throws IOException {
    List<Path> spiClasses = classesOf("dev/sessionstore/spi");

    assertThat(spiClasses)
        .anySatisfy(path -> assertThat(path.getFileName()).hasToString("ValidatingSessionStore.class"))
        .allSatisfy(path -> assertThat(refersToSpi(path)).as("%s", path).isTrue());
  }

  @Test
  void jsonOffersUsersNoUncheckedConstruction() {
    List<String> publicStatics = Arrays.stream(Json.class.getDeclaredMethods())
        .filter(method -> Modifier.isPublic(method.getModifiers()) && Modifier.isStatic(method.getModifiers()))
        .map(Method::getName).toList();

    assertThat(publicStatics).doesNotContain("stored").contains("of", "parse", "from");
  }

  private static List<Path> classesOf(String packagePath) throws IOException {
    Path root;
    try {
      root = Path.of(Json.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    try (Stream<Path> files = Files.list(root.resolve(packagePath))) {
      return files.filter(path -> path.toString().endsWith(".class")).sorted().toList();
    }
  }

  private static boolean refersToSpi(Path classFile) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(classFile);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    for (int i = 0; i + SPI.length <= bytes.length; i++) {
      if (Arrays.equals(bytes, i, i + SPI.length, SPI, 0, SPI.length)) {
        return true;
      }
    }
    return false;
  }
}
