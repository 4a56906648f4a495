package dev.sessionstore.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.junit.jupiter.api.Test;

/**
 * The API's javadoc carries the guarantees its comments link to ({@code <a href="doc-files/guarantees.html#10">}):
 * {@code session-store-api/src/main/java/dev/sessionstore/doc-files/guarantees.html} is {@code docs/guarantees.md}
 * rendered, with GitHub's heading anchors, so the two never say different things. When the page is behind, run this
 * test with {@code -Dsessionstore.docs.write=true} to render it again, and commit the result.
 */
class GuaranteesJavadocPageTest {

  private static final Pattern HEADING = Pattern.compile("<h([1-6])>(.*?)</h\\1>");
  private static final Pattern TAG = Pattern.compile("<[^>]+>");

  @Test
  void javadocPageIsTheGuaranteesRendered() throws IOException {
    Path root = RepositoryRoot.find();
    String markdown = Files.readString(root.resolve("docs/guarantees.md"));
    Path page = root.resolve("session-store-api/src/main/java/dev/sessionstore/doc-files/guarantees.html");
    String expected = page(markdown);
    if (Boolean.getBoolean("sessionstore.docs.write")) {
      Files.writeString(page, expected);
    }
    assertThat(page).as("the API's javadoc page of the guarantees").isRegularFile();
    assertThat(Files.readString(page))
        .as(page + " is docs/guarantees.md rendered; run GuaranteesJavadocPageTest with"
            + " -Dsessionstore.docs.write=true to render it again")
        .isEqualTo(expected);
  }

  @Test
  void everyNumberedGuaranteeHasItsAnchor() throws IOException {
    String markdown = Files.readString(RepositoryRoot.find().resolve("docs/guarantees.md"));
    String html = page(markdown);
    for (int guarantee = 1; guarantee <= 20; guarantee++) {
      assertThat(html).as("the anchor of guarantee " + guarantee).contains("<a id=\"" + guarantee + "\"></a>");
    }
    assertThat(html).contains("<h2 id=\"archives\">", "<h2 id=\"fine-print\">", "<h2 id=\"rules-for-the-edge-cases\">");
  }

  /** The HTML page javadoc copies into the API's documentation: the Markdown rendered, headings given ids. */
  static String page(String markdown) {
    String body = HtmlRenderer.builder().build().render(Parser.builder().build().parse(markdown));
    Matcher heading = HEADING.matcher(body);
    StringBuilder withIds = new StringBuilder();
    while (heading.find()) {
      String id = MarkdownLinksTest.slug(TAG.matcher(heading.group(2)).replaceAll(""));
      heading.appendReplacement(withIds, Matcher.quoteReplacement(
          "<h" + heading.group(1) + " id=\"" + id + "\">" + heading.group(2) + "</h" + heading.group(1) + ">"));
    }
    heading.appendTail(withIds);
    return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>What every session-store adapter guarantees</title>
        </head>
        <body>
        <!-- Rendered from docs/guarantees.md by GuaranteesJavadocPageTest in session-store-demo; edit that file. -->
        """ + withIds + """
        </body>
        </html>
        """;
  }
}
