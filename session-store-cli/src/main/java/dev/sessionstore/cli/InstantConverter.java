package dev.sessionstore.cli;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * An instant on the command line, in ISO-8601 UTC ({@code 2025-01-31T12:00:00Z}); anything else is refused in one
 * line that shows the form, never the parser's own exception.
 */
final class InstantConverter implements ITypeConverter<Instant> {

  @Override
  public Instant convert(String value) {
    try {
      return Instant.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw new TypeConversionException("'" + value + "' is not an instant: give one in ISO-8601 UTC, such as "
          + "2025-01-31T12:00:00Z");
    }
  }
}
