package dev.sessionstore.crypto;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionstore.EncryptionKeyException;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Json;
import dev.sessionstore.Limits;
import dev.sessionstore.spi.StoredJson;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals values (JSON documents and byte blobs) with AES-256-GCM under a per-session key, and opens them.
 *
 * <p><b>Keys.</b> For master key {@code kid} and session {@code sid}, HKDF-SHA256 (salt {@code
 * session-store/hkdf/v1}, info {@code session-store/v1/session:<sid>}, or {@code session-store/v1/global} for values
 * of no session) gives 64 bytes: an AES-256 key and an HMAC key for nonces. Derived keys are cached per
 * {@code (kid, sid)} (at most {@value #CACHE_SIZE} pairs, then the cache starts over).
 *
 * <p><b>Deterministic nonces.</b> The 96-bit nonce is the HMAC-SHA256 of the associated data and the plaintext,
 * truncated (a synthetic IV): sealing the same plaintext in the same place under the same key gives the same bytes,
 * so an adapter's idempotency (a replayed event, a re-imported archive) still holds on sealed values; two different
 * plaintexts get different nonces but for an HMAC collision. The cost: whoever reads the database can tell that two
 * values of one session and kind are equal, nothing more.
 *
 * <p><b>Associated data</b> binds a value to its format version, kind ({@code event.payload}, ...), key id and
 * session: a value moved to another kind, or its header edited, does not open.
 *
 * <p><b>Compression.</b> Plaintexts of 256 bytes or more are deflated before sealing when that makes them shorter
 * (a flag says so), so that a value near the adapter's size limits still fits once sealed. Compression lets value
 * lengths hint at content (a stored length depends on how repetitive the plaintext is); turn it off on the builder
 * where an attacker can mix chosen text with secrets in one value and watch stored sizes.
 *
 * <p><b>Forms.</b> A sealed document is {@code {"$sealed":{"v":1,"kid":..,"sid":..,"data":<base64>}}}, data being
 * flags, nonce, ciphertext and tag. A sealed blob is {@code SSE1}, the key id and session id (length-prefixed UTF-8),
 * flags, nonce, ciphertext and tag. A value in neither form (written before encryption was turned on, or by the
 * adapter itself, like the result of an expired tool call) opens as itself. Thread-safe.
 */
final class Sealer {

  static final String MEMBER = "$sealed";
  private static final int VERSION = 1;
  /** A sealed document's text up to its key id, then the texts between its fields and after the last. */
  private static final String KID_FROM = "{\"" + MEMBER + "\":{\"v\":" + VERSION + ",\"kid\":\"";
  private static final String SID_FROM = "\",\"sid\":\"";
  private static final String DATA_FROM = "\",\"data\":\"";
  private static final String END = "\"}}";
  private static final byte[] SALT = "session-store/hkdf/v1".getBytes(StandardCharsets.UTF_8);
  private static final byte[] MAGIC = {'S', 'S', 'E', '1'};
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final int COMPRESS_FROM = 256;
  private static final byte DEFLATED = 1;
  private static final int CACHE_SIZE = 4096;

  private final KeyProvider keys;
  private final boolean compress;
  private final Map<String, SessionKeys> derived = new ConcurrentHashMap<>();

  Sealer(KeyProvider keys, boolean compress) {
    this.keys = keys;
    this.compress = compress;
  }

  /** {@code plain} sealed under the current key for {@code sessionId} (null for none); null stays null. */
  Json seal(String sessionId, String kind, Json plain) {
    if (plain == null) {
      return null;
    }
    String kid = keys.currentKeyId();
    String sid = sessionId == null ? "" : sessionId;
    byte[] data = encrypt(kid, sid, kind, plain.text().getBytes(StandardCharsets.UTF_8));
    String text = envelope(kid, sid, Base64.getEncoder().encodeToString(data));
    if (text.length() > Limits.MAX_JSON_LENGTH) {
      throw new InvalidArgumentException(kind, "sealed, the document is " + text.length() + " chars, more than "
          + Limits.MAX_JSON_LENGTH + ": an encrypted document must compress, or stay under about 3/4 of the limit");
    }
    return StoredJson.of(text);
  }

  /** The plaintext of {@code stored}; a document not sealed is returned as is, null as null. */
  Json open(String kind, Json stored) {
    Optional<Envelope> envelope = envelope(stored);
    if (envelope.isEmpty()) {
      return stored;
    }
    Envelope sealed = envelope.get();
    byte[] data = Base64.getDecoder().decode(sealed.data());
    byte[] plain = decrypt(sealed.kid(), sealed.sid(), kind, data);
    return StoredJson.of(new String(plain, StandardCharsets.UTF_8));
  }

  /** The key id {@code stored} names, or empty when it is not sealed. */
  Optional<String> keyId(Json stored) {
    return envelope(stored).map(Envelope::kid);
  }

  /** {@code plain} sealed under the current key for {@code sessionId} (null for none); null stays null. */
  byte[] seal(String sessionId, String kind, byte[] plain) {
    if (plain == null) {
      return null;
    }
    String kid = keys.currentKeyId();
    String sid = sessionId == null ? "" : sessionId;
    byte[] kidBytes = kid.getBytes(StandardCharsets.UTF_8);
    byte[] sidBytes = sid.getBytes(StandardCharsets.UTF_8);
    byte[] data = encrypt(kid, sid, kind, plain);
    ByteBuffer out = ByteBuffer.allocate(MAGIC.length + 2 + kidBytes.length + 2 + sidBytes.length + data.length);
    out.put(MAGIC).putShort((short) kidBytes.length).put(kidBytes).putShort((short) sidBytes.length).put(sidBytes)
        .put(data);
    return out.array();
  }

  /** The plaintext of {@code stored}; bytes not sealed are returned as is, null as null. */
  byte[] open(String kind, byte[] stored) {
    if (!isSealed(stored)) {
      return stored;
    }
    ByteBuffer in = ByteBuffer.wrap(stored, MAGIC.length, stored.length - MAGIC.length);
    String kid = string(in);
    String sid = string(in);
    byte[] data = new byte[in.remaining()];
    in.get(data);
    return decrypt(kid, sid, kind, data);
  }

  /** The key id {@code stored} names, or empty when it is not sealed. */
  Optional<String> keyId(byte[] stored) {
    if (!isSealed(stored)) {
      return Optional.empty();
    }
    return Optional.of(string(ByteBuffer.wrap(stored, MAGIC.length, stored.length - MAGIC.length)));
  }

  /**
   * {@code stored}, a sealed document of {@code kind}, opened and sealed again under the current key for the session
   * it was sealed for (which its envelope names: a value a fork shares stays its parent's).
   *
   * @throws dev.sessionstore.EncryptionKeyException naming the key id if the key it names is missing or does not
   *                                                 open it
   */
  Json reseal(String kind, Json stored) {
    String sid = envelope(stored).orElseThrow().sid();
    return seal(sid.isEmpty() ? null : sid, kind, open(kind, stored));
  }

  /**
   * {@code stored}, a sealed blob of {@code kind}, opened and sealed again under the current key, as
   * {@link #reseal(String, Json)} does for documents.
   *
   * @throws dev.sessionstore.EncryptionKeyException naming the key id if the key it names is missing or does not
   *                                                 open it
   */
  byte[] reseal(String kind, byte[] stored) {
    ByteBuffer in = ByteBuffer.wrap(stored, MAGIC.length, stored.length - MAGIC.length);
    string(in);
    String sid = string(in);
    return seal(sid.isEmpty() ? null : sid, kind, open(kind, stored));
  }

  /** The id of the key new values are sealed under. */
  String currentKeyId() {
    return keys.currentKeyId();
  }

  private static boolean isSealed(byte[] stored) {
    return stored != null && stored.length > MAGIC.length && Arrays.equals(stored, 0, MAGIC.length, MAGIC, 0,
        MAGIC.length);
  }

  private static String string(ByteBuffer in) {
    byte[] bytes = new byte[in.getShort() & 0xFFFF];
    in.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * The sealed document's text, {@code {"$sealed":{"v":1,"kid":..,"sid":..,"data":..}}}, compact and escaped as
   * Jackson writes a tree, written directly: building and writing a tree cost more than the encryption.
   */
  private static String envelope(String kid, String sid, String data) {
    JsonStringEncoder quoting = JsonStringEncoder.getInstance();
    StringBuilder text = new StringBuilder(64 + kid.length() + sid.length() + data.length());
    text.append(KID_FROM).append(quoting.quoteAsString(kid));
    text.append(SID_FROM).append(quoting.quoteAsString(sid));
    text.append(DATA_FROM).append(data).append(END);
    return text.toString();
  }

  /** The fields of {@code stored} when it is a sealed document; empty for any other document, and for null. */
  private static Optional<Envelope> envelope(Json stored) {
    if (stored == null || !stored.isObject() || !stored.text().contains(MEMBER)) {
      return Optional.empty();
    }
    Envelope written = asWritten(stored.text());
    if (written != null) {
      return Optional.of(written);
    }
    JsonNode tree = stored.tree();
    JsonNode sealed = tree.get(MEMBER);
    return tree.size() == 1 && sealed != null && sealed.isObject() && sealed.path("v").asInt() == VERSION
        ? Optional.of(new Envelope(sealed.path("kid").asText(), sealed.path("sid").asText(),
            sealed.path("data").asText()))
        : Optional.empty();
  }

  /**
   * The fields of {@code text} when it is exactly what {@link #envelope(String, String, String)} writes for fields
   * that need no escape (every sealed document this class wrote for such ids), read without a parser; null for any
   * other text, which the parser then reads, so both read every such text alike.
   */
  private static Envelope asWritten(String text) {
    if (!text.startsWith(KID_FROM)) {
      return null;
    }
    int kidEnd = text.indexOf('"', KID_FROM.length());
    if (kidEnd < 0 || !text.startsWith(SID_FROM, kidEnd)) {
      return null;
    }
    int sidStart = kidEnd + SID_FROM.length();
    int sidEnd = text.indexOf('"', sidStart);
    if (sidEnd < 0 || !text.startsWith(DATA_FROM, sidEnd)) {
      return null;
    }
    int dataStart = sidEnd + DATA_FROM.length();
    int dataEnd = text.length() - END.length();
    if (dataEnd < dataStart || text.indexOf('"', dataStart) != dataEnd || !text.startsWith(END, dataEnd)) {
      return null;
    }
    String kid = text.substring(KID_FROM.length(), kidEnd);
    String sid = text.substring(sidStart, sidEnd);
    String data = text.substring(dataStart, dataEnd);
    return unescaped(kid) && unescaped(sid) && unescaped(data) ? new Envelope(kid, sid, data) : null;
  }

  /** Whether {@code field} reads as written inside a JSON string: no escape, no control character. */
  private static boolean unescaped(String field) {
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' || c < ' ') {
        return false;
      }
    }
    return true;
  }

  /** Flags, nonce, ciphertext and tag of {@code plain}. */
  private byte[] encrypt(String kid, String sid, String kind, byte[] plain) {
    SessionKeys sessionKeys = keysFor(kid, sid);
    byte flags = 0;
    byte[] body = plain;
    if (compress && plain.length >= COMPRESS_FROM) {
      byte[] deflated = deflate(plain);
      if (deflated.length < plain.length) {
        body = deflated;
        flags = DEFLATED;
      }
    }
    byte[] aad = associatedData(kid, sid, kind, flags);
    Mac mac = sessionKeys.nonceMac();
    mac.update(aad);
    mac.update(plain);
    byte[] nonce = Arrays.copyOf(mac.doFinal(), NONCE_BYTES);
    try {
      Cipher cipher = GcmCiphers.encrypting(sessionKeys.aesKey, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(aad);
      byte[] sealed = cipher.doFinal(body);
      return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length).put(flags).put(nonce).put(sealed).array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM refused to encrypt under key " + kid, e);
    }
  }

  private byte[] decrypt(String kid, String sid, String kind, byte[] data) {
    if (data.length < 1 + NONCE_BYTES + TAG_BITS / 8) {
      throw new EncryptionKeyException(kid, "a value sealed under key " + kid + " is truncated (" + data.length
          + " bytes)", null);
    }
    SessionKeys sessionKeys = keysFor(kid, sid);
    byte flags = data[0];
    try {
      Cipher cipher = GcmCiphers.decrypting(sessionKeys.aesKey,
          new GCMParameterSpec(TAG_BITS, data, 1, NONCE_BYTES));
      cipher.updateAAD(associatedData(kid, sid, kind, flags));
      byte[] body = cipher.doFinal(data, 1 + NONCE_BYTES, data.length - 1 - NONCE_BYTES);
      return flags == DEFLATED ? inflate(body) : body;
    } catch (AEADBadTagException e) {
      throw new EncryptionKeyException(kid, "key " + kid + " does not open a value sealed under its id: a wrong key"
          + " for that id, or a value changed where it is stored", e);
    } catch (GeneralSecurityException e) {
      throw new EncryptionKeyException(kid, "a value sealed under key " + kid + " does not decrypt: "
          + e.getMessage(), e);
    }
  }

  private SessionKeys keysFor(String kid, String sid) {
    String cacheKey = kid + '\u0000' + sid;
    SessionKeys cached = derived.get(cacheKey);
    if (cached != null) {
      return cached;
    }
    byte[] master = keys.key(kid).orElseThrow(() -> new EncryptionKeyException(kid,
        "key " + kid + " is not available from the key provider " + keys, null));
    byte[] info = (sid.isEmpty() ? "session-store/v1/global" : "session-store/v1/session:" + sid)
        .getBytes(StandardCharsets.UTF_8);
    byte[] okm = Hkdf.derive(SALT, master, info, 64);
    Arrays.fill(master, (byte) 0);
    byte[] nonceKey = Arrays.copyOfRange(okm, 32, 64);
    SessionKeys fresh = new SessionKeys(new SecretKeySpec(okm, 0, 32, "AES"), nonceKey, Hkdf.mac(nonceKey));
    Arrays.fill(okm, (byte) 0);
    if (derived.size() >= CACHE_SIZE) {
      derived.clear();
    }
    derived.put(cacheKey, fresh);
    return fresh;
  }

  private static byte[] associatedData(String kid, String sid, String kind, byte flags) {
    return ("session-store/v1|" + kind + "|" + kid + "|" + sid + "|" + flags).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] deflate(byte[] plain) {
    Deflater deflater = new Deflater(Deflater.BEST_SPEED);
    try {
      deflater.setInput(plain);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, plain.length / 4));
      byte[] buffer = new byte[8192];
      while (!deflater.finished()) {
        out.write(buffer, 0, deflater.deflate(buffer));
      }
      return out.toByteArray();
    } finally {
      deflater.end();
    }
  }

  private static byte[] inflate(byte[] body) {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(body);
      ByteArrayOutputStream out = new ByteArrayOutputStream(body.length * 4);
      byte[] buffer = new byte[8192];
      while (!inflater.finished()) {
        int n = inflater.inflate(buffer);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw new IllegalStateException("an authenticated value does not inflate: truncated stream");
        }
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw new IllegalStateException("an authenticated value does not inflate", e);
    } finally {
      inflater.end();
    }
  }

  /** The fields of a sealed document: key id, session id ({@code ""} for none) and base64 data. */
  private record Envelope(String kid, String sid, String data) {
  }

  /**
   * The keys of one session under one master key: the AES key, the nonce key, and an HMAC keyed with it, kept unused
   * as the prototype of each nonce's HMAC.
   */
  private record SessionKeys(SecretKeySpec aesKey, byte[] nonceKey, Mac keyedNonceMac) {

    /**
     * An HMAC keyed with the nonce key, for one nonce: a copy of the prototype, which saves the key's setup (copying
     * only reads the prototype, so threads may copy it at once); a new one where the provider's HMAC does not copy.
     */
    Mac nonceMac() {
      try {
        return (Mac) keyedNonceMac.clone();
      } catch (CloneNotSupportedException e) {
        return Hkdf.mac(nonceKey);
      }
    }
  }
}
