package dev.sessionstore.conformance.broken;

import dev.sessionstore.Event;
import dev.sessionstore.Json;
import dev.sessionstore.NewEvent;
import dev.sessionstore.SessionStore;
import dev.sessionstore.conformance.BrokenStoreTest;
import dev.sessionstore.conformance.SessionStoreConformance;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A store whose JSON mapper reads numbers in event payloads as {@code double}, as a default object mapper does:
 * big integers and long decimals come back rounded.
 */
class BrokenNumbersThroughDoubleTest extends BrokenStoreTest {

  /** A number token that follows a colon, comma or opening bracket, or is the whole document. */
  private static final Pattern NUMBER =
      Pattern.compile("(^\\s*|[:,\\[]\\s*)(-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)");

  BrokenNumbersThroughDoubleTest() {
    super(SessionStoreConformance.Payloads.class, "eventNumbersComeBackExactly",
        "number 123456789012345678901234567890 stored as a member");
  }

  @Override
  protected SessionStore brokenStore(Clock clock) {
    return ForwardingStore.of(correctStore(clock)).withEvents(log -> new ForwardingEventLog(log) {
      @Override
      public Event append(String sessionId, NewEvent event) {
        return delegate.append(sessionId, event.withPayload(throughDouble(event.payload())));
      }
    });
  }

  private static Json throughDouble(Json payload) {
    Matcher matcher = NUMBER.matcher(payload.text());
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      double rounded = Double.parseDouble(matcher.group(2));
      String rendered = Double.isFinite(rounded) ? new BigDecimal(rounded).toString() : "0";
      matcher.appendReplacement(out, Matcher.quoteReplacement(matcher.group(1) + rendered));
    }
    matcher.appendTail(out);
    return Json.of(out.toString());
  }
}
