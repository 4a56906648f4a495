package dev.sessionstore.crypto;

import dev.sessionstore.spi.StoredValue;
import dev.sessionstore.spi.StoredValueKind;
import dev.sessionstore.spi.StoredValuePage;
import dev.sessionstore.spi.StoredValues;
import java.util.Optional;

/**
 * One re-encryption pass over a store's {@link StoredValues}: pages through every stored value and moves each one
 * sealed under another key than the current one to the current key, by a compare-and-set rewrite, so a writer that
 * changes the value meanwhile wins (its value is sealed under the current key already). A value keeps the session
 * its envelope names, so values a fork shares with its parent still open for both. Values in clear stay in clear.
 */
final class Reencryption {

  private final StoredValues values;
  private final Sealer sealer;
  private final int pageSize;

  Reencryption(StoredValues values, Sealer sealer, int pageSize) {
    this.values = values;
    this.sealer = sealer;
    this.pageSize = pageSize;
  }

  ReencryptResult run(ReencryptOptions options) {
    String current = sealer.currentKeyId();
    Optional<String> cursor = options.resumeFrom();
    long scanned = 0;
    long rewritten = 0;
    long alreadyCurrent = 0;
    long notSealed = 0;
    long changed = 0;
    while (true) {
      long room = options.limit() == 0 ? pageSize : Math.min(pageSize, options.limit() - scanned);
      StoredValuePage page = values.scan(cursor, (int) room);
      for (StoredValue value : page.values()) {
        scanned++;
        Optional<String> keyId = keyId(value);
        if (keyId.isEmpty()) {
          notSealed++;
        } else if (keyId.get().equals(current)) {
          alreadyCurrent++;
        } else if (options.dryRun() || values.rewrite(value, resealed(value))) {
          rewritten++;
        } else {
          changed++;
        }
      }
      cursor = page.nextCursor();
      ReencryptResult result = new ReencryptResult(options.dryRun(), scanned, rewritten, alreadyCurrent, notSealed,
          changed, cursor);
      options.progress().accept(result);
      if (cursor.isEmpty() || options.limit() != 0 && scanned >= options.limit()) {
        return result;
      }
    }
  }

  private Optional<String> keyId(StoredValue value) {
    return value.ref().kind().blob() ? sealer.keyId(value.blob()) : sealer.keyId(value.document());
  }

  private StoredValue resealed(StoredValue value) {
    String kind = kind(value.ref().kind());
    return value.ref().kind().blob() ? StoredValue.of(value.ref(), sealer.reseal(kind, value.blob()))
        : StoredValue.of(value.ref(), sealer.reseal(kind, value.document()));
  }

  /** The kind a value is sealed as (its associated data), as {@link Values} seals it. */
  private static String kind(StoredValueKind kind) {
    return switch (kind) {
      case EVENT_PAYLOAD -> Values.EVENT_PAYLOAD;
      case TOOL_CALL_ARGUMENTS -> Values.TOOL_ARGUMENTS;
      case TOOL_CALL_RESULT -> Values.TOOL_RESULT;
      case SUMMARY_CONTENT -> Values.SUMMARY_CONTENT;
      case CHECKPOINT_DATA, GLOBAL_CHECKPOINT_DATA -> Values.CHECKPOINT_DATA;
      case MODEL_CALL_CONTEXT -> Values.MODEL_CONTEXT;
      case MODEL_CALL_USAGE -> Values.MODEL_USAGE;
    };
  }
}
