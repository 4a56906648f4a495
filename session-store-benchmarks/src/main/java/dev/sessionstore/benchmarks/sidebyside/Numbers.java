package dev.sessionstore.benchmarks.sidebyside;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** How the report prints measured numbers: three significant digits or more, units spelled out. */
final class Numbers {

  private Numbers() {
  }

  /** {@code 0.412 ms}, {@code 4.12 ms}, {@code 41.2 ms}, {@code 1,412 ms}. */
  static String millis(double millis) {
    return plain(millis) + " ms";
  }

  /** {@code p50 0.412 ms · p99 1.92 ms}. */
  static String percentiles(Samples samples) {
    return "p50 " + millis(samples.p50()) + " · p99 " + millis(samples.p99());
  }

  /** {@code 0.312 µs}. */
  static String micros(double millis) {
    return plain(millis * 1_000) + " µs";
  }

  /** {@code 3.12M appends/s}, {@code 31.2k events/s}, {@code 912 appends/s}. */
  static String rate(double perSecond, String unit) {
    return amount(perSecond) + " " + unit + "/s";
  }

  /** {@code 3.12M}, {@code 31.2k}, {@code 912}. */
  static String amount(double value) {
    return value >= 1e6 ? plain(value / 1e6) + "M" : value >= 1e3 ? plain(value / 1e3) + "k" : plain(value);
  }

  /** A round number as a target or an axis states it: {@code 0.9}, {@code 2}, {@code 50k}, {@code 1.5M}. */
  static String round(double value) {
    double scaled = value >= 1e6 ? value / 1e6 : value >= 1e3 ? value / 1e3 : value;
    String suffix = value >= 1e6 ? "M" : value >= 1e3 ? "k" : "";
    return new BigDecimal(scaled).round(new MathContext(3)).stripTrailingZeros().toPlainString() + suffix;
  }

  /** {@code 0.62×}. */
  static String ratio(double ratio) {
    return plain(ratio) + "×";
  }

  /** {@code 1,000,000}. */
  static String count(long count) {
    return String.format(Locale.ROOT, "%,d", count);
  }

  /** Three significant digits or more: 0.213, 4.56, 78.9, 1,234. */
  static String plain(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "n/a";
    }
    double magnitude = Math.abs(value);
    String pattern = magnitude < 1 ? "%.3f" : magnitude < 10 ? "%.2f" : magnitude < 100 ? "%.1f" : "%,.0f";
    return String.format(Locale.ROOT, pattern, value);
  }
}
