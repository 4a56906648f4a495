package dev.sessionstore.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sessionstore.Capability;
import dev.sessionstore.crypto.EncryptingSessionStore;
import dev.sessionstore.crypto.KeyRing;
import dev.sessionstore.crypto.ReencryptOptions;
import dev.sessionstore.crypto.ReencryptResult;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code reencrypt}: moves every value of an encrypting store sealed under an older key to the key file's current key,
 * in place ({@link EncryptingSessionStore#reencrypt}), or with {@code --dry-run} counts what would move. The keys come
 * from {@code --key-file} or the file the environment variable {@value KeyFile#ENV} names ({@link KeyFile}). A progress
 * line per page goes to standard error; the totals, and the cursor to resume from after {@code --limit}, to standard
 * output.
 */
@Command(name = "reencrypt",
    description = "Move values sealed under older keys to the current key of the key file (or, with --dry-run, "
        + "count them).")
final class ReencryptCommand implements Callable<Integer> {

  @Mixin
  private HelpOption help;

  @ParentCommand
  private SessionStoreCli cli;

  @Spec
  private CommandSpec spec;

  @Option(names = "--key-file", paramLabel = "<file>",
      description = "Properties file of the master keys: current=<id> and key.<id>=<base64> per key (default: the "
          + "file $" + KeyFile.ENV + " names).")
  private Path keyFile;

  @Option(names = "--dry-run", description = "Count what would move to the current key; write nothing.")
  private boolean dryRun;

  @Option(names = "--limit", paramLabel = "<n>", description = "Look at most at n values, then print where to resume.")
  private Long limit;

  @Option(names = "--resume", paramLabel = "<cursor>", description = "Start where an earlier run with --limit stopped.")
  private String resume;

  @Override
  public Integer call() {
    KeyRing keys = KeyFile.read(keyFile());
    if (limit != null && limit < 1) {
      throw new ParameterException(spec.commandLine(), "--limit: must be at least 1 (was " + limit + ")");
    }
    ReencryptOptions options = ReencryptOptions.defaults().withDryRun(dryRun).withLimit(limit == null ? 0 : limit)
        .withProgress(this::progress);
    if (resume != null) {
      options = options.withResumeFrom(resume);
    }
    try (OpenedStore opened = cli.open(StoreOpener.Schema.EXISTING)) {
      if (!opened.store().supports(Capability.STORED_VALUE_REWRITE)) {
        throw new CliFailure(ExitCode.FAILURE, opened.target().describe() + " cannot rewrite stored values");
      }
      EncryptingSessionStore store = EncryptingSessionStore.builder(opened.store()).keys(keys).build();
      ReencryptResult result = store.reencrypt(options);
      if (cli.interactive()) {
        cli.err().println();
      }
      print(result, opened.target().describe(), keys.currentKeyId());
    }
    return ExitCode.OK.code();
  }

  private Path keyFile() {
    if (keyFile != null) {
      return keyFile;
    }
    String fromEnv = System.getenv(KeyFile.ENV);
    if (fromEnv == null || fromEnv.isBlank()) {
      throw new ParameterException(spec.commandLine(), "give the keys: --key-file <file> or $" + KeyFile.ENV);
    }
    return Path.of(fromEnv);
  }

  /** One line per page on standard error, redrawn in place when a person watches. */
  private void progress(ReencryptResult so) {
    String line = (so.dryRun() ? "reencrypting (dry run): " : "reencrypting: ") + so.scanned() + " scanned, "
        + so.rewritten() + (so.dryRun() ? " to move" : " moved") + ", " + so.alreadyCurrent() + " current";
    if (cli.interactive()) {
      cli.err().print("\r" + line);
    } else {
      cli.err().println(line);
    }
    cli.err().flush();
  }

  private void print(ReencryptResult result, String target, String current) {
    Output output = cli.output();
    if (output.json()) {
      ObjectNode json = Records.MAPPER.createObjectNode().put("store", target).put("currentKey", current)
          .put("dryRun", result.dryRun()).put("scanned", result.scanned()).put("rewritten", result.rewritten())
          .put("alreadyCurrent", result.alreadyCurrent()).put("notSealed", result.notSealed())
          .put("changed", result.changed());
      result.resumeCursor().ifPresent(cursor -> json.put("resume", cursor));
      output.json(json);
      return;
    }
    output.field("store", target);
    output.field("current key", current);
    output.field("scanned", Long.toString(result.scanned()));
    output.field(result.dryRun() ? "would move" : "moved", Long.toString(result.rewritten()));
    output.field("already current", Long.toString(result.alreadyCurrent()));
    output.field("in clear", Long.toString(result.notSealed()));
    output.field("changed meanwhile", Long.toString(result.changed()));
    result.resumeCursor().ifPresent(cursor -> output.field("resume", "--resume " + cursor));
  }
}
