package dev.sessionstore.cli;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.crypto.KeyRing;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Properties;
import java.util.TreeSet;

/**
 * The master keys of an encrypting store, as the tool reads them: a properties file naming the current key and every
 * key by id, base64 (at least 32 bytes each). Its path comes from {@code --key-file}, else from the environment
 * variable {@value #ENV}.
 *
 * <pre>
 * current=2026-11
 * key.2025-05=...base64...
 * key.2026-11=...base64...
 * </pre>
 */
final class KeyFile {

  /** The environment variable naming the key file when {@code --key-file} is not given. */
  static final String ENV = "SESSION_STORE_KEY_FILE";
  private static final String PREFIX = "key.";

  private KeyFile() {
  }

  /**
   * The key ring the file holds.
   *
   * @throws CliFailure with {@link ExitCode#USAGE} naming the file and the problem
   */
  static KeyRing read(Path file) {
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(in);
    } catch (IOException e) {
      throw new CliFailure(ExitCode.USAGE, "cannot read the key file " + file + ": " + e.getMessage());
    }
    String current = properties.getProperty("current");
    if (current == null || current.isBlank()) {
      throw new CliFailure(ExitCode.USAGE, "the key file " + file + " names no current key (current=<key id>)");
    }
    KeyRing.Builder ring = KeyRing.builder();
    for (String name : new TreeSet<>(properties.stringPropertyNames())) {
      if (name.startsWith(PREFIX)) {
        try {
          ring.add(name.substring(PREFIX.length()), Base64.getDecoder().decode(properties.getProperty(name).trim()));
        } catch (IllegalArgumentException | InvalidArgumentException e) {
          throw new CliFailure(ExitCode.USAGE, "the key file " + file + ": " + name + ": " + e.getMessage());
        }
      }
    }
    try {
      return ring.current(current.trim()).build();
    } catch (InvalidArgumentException e) {
      throw new CliFailure(ExitCode.USAGE, "the key file " + file + ": " + e.getMessage());
    }
  }
}
