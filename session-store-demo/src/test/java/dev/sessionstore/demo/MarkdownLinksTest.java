package dev.sessionstore.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents stay navigable: every relative link of every Markdown file of the repository names a file or folder
 * that exists, every {@code #anchor} into a Markdown file names one of its headings (as GitHub renders them) or an
 * explicit {@code <a id>}, and every page under {@code docs/} is linked from some other Markdown file.
 */
class MarkdownLinksTest {

  private static final Pattern INLINE_LINK = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
  private static final Pattern REFERENCE_DEFINITION = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s+.*)?$");
  private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern EXPLICIT_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");

  @Test
  void everyRelativeLinkResolves() throws IOException {
    Path root = RepositoryRoot.find();
    List<String> broken = new ArrayList<>();
    Map<Path, Set<String>> anchors = new HashMap<>();
    List<Path> pages = markdownFiles(root);
    assertThat(pages).as("Markdown files under " + root).contains(root.resolve("README.md"));
    for (Path page : pages) {
      for (Link link : links(page)) {
        String problem = problem(root, page, link, anchors);
        if (problem != null) {
          broken.add(root.relativize(page) + ":" + link.line() + ": (" + link.target() + ") " + problem);
        }
      }
    }
    assertThat(broken).as("broken relative links").isEmpty();
  }

  @Test
  void everyDocsPageIsLinkedFromAnotherPage() throws IOException {
    Path root = RepositoryRoot.find();
    Path docs = root.resolve("docs");
    assertThat(docs).isDirectory();
    Set<Path> linked = new HashSet<>();
    for (Path page : markdownFiles(root)) {
      for (Link link : links(page)) {
        String path = pathPart(link.target());
        if (!isExternal(link.target()) && !path.isEmpty()) {
          Path target = page.getParent().resolve(path).normalize();
          if (!target.equals(page)) {
            linked.add(target);
          }
        }
      }
    }
    Set<String> orphans = new TreeSet<>();
    for (Path page : markdownFiles(docs)) {
      if (!linked.contains(page)) {
        orphans.add(root.relativize(page).toString());
      }
    }
    assertThat(orphans).as("pages under docs/ that no other Markdown file links to").isEmpty();
  }

  /** Why {@code link} of {@code page} is broken, or null when it resolves. */
  private static String problem(Path root, Path page, Link link, Map<Path, Set<String>> anchors) throws IOException {
    String target = link.target();
    if (isExternal(target) || target.isEmpty()) {
      return null;
    }
    String path = pathPart(target);
    Path resolved = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
    if (!resolved.startsWith(root)) {
      return "leaves the repository";
    }
    if (!Files.exists(resolved)) {
      return "no such file or folder: " + root.relativize(resolved);
    }
    int hash = target.indexOf('#');
    if (hash < 0 || !resolved.toString().endsWith(".md")) {
      return null;
    }
    String anchor = target.substring(hash + 1);
    Set<String> known = anchors.get(resolved);
    if (known == null) {
      known = anchorsOf(resolved);
      anchors.put(resolved, known);
    }
    return known.contains(anchor) ? null : "no heading or anchor #" + anchor + " in " + root.relativize(resolved);
  }

  private static boolean isExternal(String target) {
    return SCHEME.matcher(target).find() || target.startsWith("//");
  }

  private static String pathPart(String target) {
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    int query = path.indexOf('?');
    return query < 0 ? path : path.substring(0, query);
  }

  /** The links of a page outside fenced code blocks and code spans, with their line numbers. */
  static List<Link> links(Path page) throws IOException {
    List<Link> links = new ArrayList<>();
    for (ProseLine prose : proseLines(page)) {
      String text = CODE_SPAN.matcher(prose.text()).replaceAll("");
      Matcher inline = INLINE_LINK.matcher(text);
      while (inline.find()) {
        links.add(new Link(prose.number(), inline.group(1)));
      }
      Matcher reference = REFERENCE_DEFINITION.matcher(text);
      if (reference.matches()) {
        links.add(new Link(prose.number(), reference.group(1)));
      }
    }
    return links;
  }

  /** A line of a page outside its fenced code blocks, with its line number. */
  record ProseLine(int number, String text) {
  }

  /** The lines of a page outside fenced code blocks (``` or ~~~), with their line numbers. */
  static List<ProseLine> proseLines(Path page) throws IOException {
    List<ProseLine> prose = new ArrayList<>();
    List<String> lines = Files.readAllLines(page);
    String fence = null;
    for (int i = 0; i < lines.size(); i++) {
      String stripped = lines.get(i).strip();
      if (fence != null) {
        if (stripped.startsWith(fence)) {
          fence = null;
        }
      } else if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
        fence = stripped.substring(0, 3);
      } else {
        prose.add(new ProseLine(i + 1, lines.get(i)));
      }
    }
    return prose;
  }

  /** The anchors GitHub gives a page: one per heading (repeats numbered -1, -2, ...) and each explicit id. */
  static Set<String> anchorsOf(Path page) throws IOException {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (ProseLine prose : proseLines(page)) {
      String line = prose.text();
      Matcher explicit = EXPLICIT_ANCHOR.matcher(line);
      while (explicit.find()) {
        anchors.add(explicit.group(1));
      }
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        String slug = slug(heading.group(1));
        int count = seen.merge(slug, 1, Integer::sum);
        anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
      }
    }
    return anchors;
  }

  /** GitHub's heading slug: link text kept, lower case, punctuation dropped, spaces as hyphens. */
  static String slug(String heading) {
    String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
    return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\s_-]", "").replace(' ', '-');
  }

  /** Every Markdown file under {@code folder}, outside build output and hidden folders. */
  private static List<Path> markdownFiles(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(path -> path.toString().endsWith(".md") && Files.isRegularFile(path))
          .filter(path -> folder.relativize(path).toString().isEmpty() || isSource(folder.relativize(path)))
          .sorted()
          .toList();
    }
  }

  private static boolean isSource(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (name.equals("target") || name.equals("node_modules") || name.startsWith(".")) {
        return false;
      }
    }
    return true;
  }

  /** A link's destination as written, and the line it is on. */
  record Link(int line, String target) {
  }
}
