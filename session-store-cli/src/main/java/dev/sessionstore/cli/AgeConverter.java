package dev.sessionstore.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * An age on the command line: a whole number with a unit, {@code d}, {@code h}, {@code m} or {@code s}
 * ({@code 30d}), or ISO-8601 ({@code PT12H}, {@code P30D}). Anything else is refused in one line that shows the
 * forms, never the parser's own exception.
 */
final class AgeConverter implements ITypeConverter<Duration> {

  private static final String FORMS = "give a whole number with d, h, m or s (30d, 12h, 90m, 45s) or ISO-8601 (PT12H)";

  @Override
  public Duration convert(String value) {
    String text = value.trim().toLowerCase(Locale.ROOT);
    try {
      if (text.startsWith("p")) {
        return Duration.parse(text.toUpperCase(Locale.ROOT));
      }
      if (text.length() >= 2) {
        long amount = Long.parseLong(text.substring(0, text.length() - 1));
        Duration age = switch (text.charAt(text.length() - 1)) {
          case 'd' -> Duration.ofDays(amount);
          case 'h' -> Duration.ofHours(amount);
          case 'm' -> Duration.ofMinutes(amount);
          case 's' -> Duration.ofSeconds(amount);
          default -> null;
        };
        if (age != null) {
          return age;
        }
      }
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
      // the same answer as for any other text that is no age
    }
    throw new TypeConversionException("'" + value + "' is not an age: " + FORMS);
  }
}
