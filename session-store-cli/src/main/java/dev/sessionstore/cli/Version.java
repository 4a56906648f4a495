package dev.sessionstore.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The tool's version for {@code --version}: the project version the build wrote into its resources. */
final class Version implements IVersionProvider {

  @Override
  public String[] getVersion() {
    Properties properties = new Properties();
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new String[] {"session-store " + properties.getProperty("version", "(unknown version)")};
  }
}
