package dev.sessionstore.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.DocumentationTool;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Every public and protected type, constructor, method, field and enum constant of the published modules whose
 * sources this module's tests can compile against (session-store-api, -memory, -conformance) has a javadoc comment.
 * Runs the JDK's javadoc with doclint's {@code missing} group and fails on each "no comment" it reports. (The
 * {@code missing} group also asks for {@code @param}/{@code @return} on every method; those are not required here.)
 * session-store-jdbc needs its driver and pool on the class path, so its comments are checked by the same javadoc run
 * by hand (see the README); it had none missing when this test was written.
 */
class JavadocCoverageTest {

  private static final List<String> MODULES =
      List.of("session-store-api", "session-store-memory", "session-store-conformance");

  @Test
  void everyPublicElementHasAComment() throws Exception {
    Path root = Path.of("").toAbsolutePath().getParent();
    List<File> sources = new ArrayList<>();
    for (String module : MODULES) {
      try (Stream<Path> files = Files.walk(root.resolve(module).resolve("src/main/java"))) {
        files.filter(path -> path.toString().endsWith(".java")).map(Path::toFile).forEach(sources::add);
      }
    }
    assertThat(sources).as("sources found under %s", root).hasSizeGreaterThan(100);

    DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path out = Files.createTempDirectory("javadoc-coverage");
    try (StandardJavaFileManager files = javadoc.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
      List<String> options = List.of("-Xdoclint:missing", "-Xmaxwarns", "100000", "-quiet", "-d", out.toString(),
          "-classpath", System.getProperty("java.class.path"));
      Boolean ran = javadoc.getTask(new StringWriter(), files, diagnostics, null, options,
          files.getJavaFileObjectsFromFiles(sources)).call();
      List<String> errors = messages(diagnostics, Diagnostic.Kind.ERROR, "");
      assertThat(errors).as("javadoc errors").isEmpty();
      assertThat(ran).isTrue();
    }

    assertThat(messages(diagnostics, Diagnostic.Kind.WARNING, "no comment")).as("elements without javadoc").isEmpty();
  }

  private static List<String> messages(DiagnosticCollector<JavaFileObject> diagnostics, Diagnostic.Kind kind,
      String containing) {
    return diagnostics.getDiagnostics().stream()
        .filter(d -> d.getKind() == kind && d.getMessage(Locale.ROOT).contains(containing))
        .map(d -> (d.getSource() == null ? "" : d.getSource().getName() + ":" + d.getLineNumber() + ": ")
            + d.getMessage(Locale.ROOT))
        .collect(Collectors.toList());
  }
}
