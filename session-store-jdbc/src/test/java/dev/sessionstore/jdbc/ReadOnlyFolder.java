package dev.sessionstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A folder no process may write, root included ({@code chmod}, then {@code chattr +i} where chmod is not enough),
 * until closed: for the tests of a SQLite store on read-only media, in this module and the CLI's (through the test
 * jar). A folder that stays writable fails the test that asked for it, naming why: such a test never skips.
 */
public record ReadOnlyFolder(Path folder) implements AutoCloseable {

  /**
   * Makes {@code folder} read-only and returns the handle that makes it writable again.
   *
   * @throws AssertionError if the folder is still writable afterwards
   */
  public static ReadOnlyFolder of(Path folder) throws Exception {
    ReadOnlyFolder readOnly = new ReadOnlyFolder(folder);
    folder.toFile().setWritable(false, false);
    if (Files.isWritable(folder)) {
      run("chattr", "+i", folder.toString());
    }
    boolean writable;
    try {
      Files.delete(Files.createFile(folder.resolve("probe")));
      writable = true;
    } catch (IOException expected) {
      writable = false;
    }
    if (writable) {
      readOnly.close();
    }
    assertThat(writable).as("folder %s writable after chmod and chattr +i: this test needs a process that can make a "
        + "folder read-only (as root, chattr from e2fsprogs)", folder).isFalse();
    return readOnly;
  }

  /** Makes the folder writable again. */
  @Override
  public void close() throws Exception {
    run("chattr", "-i", folder.toString());
    folder.toFile().setWritable(true, false);
  }

  private static void run(String... command) throws Exception {
    try {
      new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start().waitFor();
    } catch (IOException noSuchCommand) {
      // No chattr: the folder stays as chmod left it, and of() says so if that is not enough.
    }
  }
}
