package dev.sessionstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command and subcommand answers {@code --help} and {@code -h} with its usage and exit code 0. The commands are
 * found by walking the help itself from the root, so a command added later is checked without editing this test.
 */
class HelpTest {

  private static final List<String> COMMANDS = List.of("demo", "sessions", "sessions list", "sessions show", "events",
      "search", "export", "import", "migrate", "retention", "reencrypt", "stats", "help");

  @TempDir
  Path folder;

  @Test
  @DisplayName("--help and -h on every command print its Usage line and options, exit 0, and touch no store")
  void everyCommandHasHelp() {
    List<String> found = new ArrayList<>();
    walk(List.of(), found);

    assertThat(found).containsExactlyInAnyOrderElementsOf(COMMANDS);
  }

  private void walk(List<String> path, List<String> found) {
    for (String flag : List.of("--help", "-h")) {
      Cli.Result help = Cli.run(append(path, flag));

      String command = String.join(" ", path);
      assertThat(help.exitCode()).as(command + " " + flag + ": " + help.err()).isZero();
      assertThat(help.err()).as(command + " " + flag).isEmpty();
      assertThat(help.out()).as(command + " " + flag)
          .startsWith("Usage: session-store" + (path.isEmpty() ? "" : " " + command) + " [")
          .contains("-h, --help", "--jdbc-url=<url>", "--json");
    }
    Cli.Result help = Cli.run(append(path, "--help"));
    for (String subcommand : subcommands(help.out())) {
      List<String> child = new ArrayList<>(path);
      child.add(subcommand);
      found.add(String.join(" ", child));
      walk(child, found);
    }
  }

  @Test
  @DisplayName("--help wins over a missing argument and over the store options, in a process of its own")
  void helpInAProcess() throws Exception {
    Cli.Result events = ToolProcess.run(folder, "events", "--help", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/x");
    Cli.Result show = ToolProcess.run(folder, "sessions", "show", "-h");

    assertThat(events.exitCode()).as(events.err()).isZero();
    assertThat(events.out()).startsWith("Usage: session-store events [").contains("-f, --follow", "<session>");
    assertThat(show.exitCode()).as(show.err()).isZero();
    assertThat(show.out()).startsWith("Usage: session-store sessions show [");
    assertThat(folder.resolve("sessions.db")).doesNotExist();
  }

  @Test
  @DisplayName("A group without its subcommand names the command to ask for help")
  void groupWithoutSubcommand() {
    Cli.Result sessions = Cli.run("sessions");

    assertThat(sessions.exitCode()).isEqualTo(ExitCode.USAGE.code());
    assertThat(sessions.err()).contains("a subcommand is required: list or show",
        "Run 'session-store sessions --help' for usage.");
  }

  /** The names listed under {@code Commands:} in a help text. */
  private static List<String> subcommands(String help) {
    List<String> names = new ArrayList<>();
    boolean inCommands = false;
    for (String line : help.lines().toList()) {
      if (line.equals("Commands:")) {
        inCommands = true;
      } else if (inCommands && line.isBlank()) {
        break;
      } else if (inCommands && line.matches("  [a-z]\\S*\\s.*")) {
        names.add(line.strip().split("\\s+")[0]);
      }
    }
    return names;
  }

  private static String[] append(List<String> path, String arg) {
    List<String> args = new ArrayList<>(path);
    args.add(arg);
    return args.toArray(String[]::new);
  }
}
