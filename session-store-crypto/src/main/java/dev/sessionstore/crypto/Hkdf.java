package dev.sessionstore.crypto;

import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF with HMAC-SHA256 (RFC 5869) on the JDK's {@link Mac}: extract a pseudorandom key from input keying material
 * and a salt, then expand it, with an info string, to as many bytes as asked (at most 255 × 32). Stateless and
 * thread-safe; tested against the RFC's test vectors.
 */
final class Hkdf {

  private static final String HMAC = "HmacSHA256";
  private static final int HASH_LENGTH = 32;

  private Hkdf() {
  }

  /** HKDF-Extract: HMAC-SHA256(salt, ikm); an empty salt stands for 32 zero bytes, as the RFC says. */
  static byte[] extract(byte[] salt, byte[] ikm) {
    byte[] key = salt.length == 0 ? new byte[HASH_LENGTH] : salt;
    return mac(key).doFinal(ikm);
  }

  /** HKDF-Expand: the first {@code length} bytes of T(1) | T(2) | ..., T(i) = HMAC(prk, T(i-1) | info | i). */
  static byte[] expand(byte[] prk, byte[] info, int length) {
    if (length < 1 || length > 255 * HASH_LENGTH) {
      throw new IllegalArgumentException("HKDF-SHA256 expands to 1.." + 255 * HASH_LENGTH + " bytes, not " + length);
    }
    Mac mac = mac(prk);
    byte[] okm = new byte[length];
    byte[] previous = new byte[0];
    int filled = 0;
    for (int i = 1; filled < length; i++) {
      mac.update(previous);
      mac.update(info);
      mac.update((byte) i);
      previous = mac.doFinal();
      int take = Math.min(previous.length, length - filled);
      System.arraycopy(previous, 0, okm, filled, take);
      filled += take;
    }
    return okm;
  }

  /** Extract, then expand. */
  static byte[] derive(byte[] salt, byte[] ikm, byte[] info, int length) {
    return expand(extract(salt, ikm), info, length);
  }

  /** An HMAC-SHA256 keyed with {@code key}; every JDK has it, so its absence is an error of the runtime. */
  static Mac mac(byte[] key) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(key, HMAC));
      return mac;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no " + HMAC, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("an HMAC key of " + key.length + " bytes was refused", e);
    }
  }
}
