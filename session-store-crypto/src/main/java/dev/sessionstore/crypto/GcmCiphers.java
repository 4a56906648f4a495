package dev.sessionstore.crypto;

import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * AES-GCM ciphers initialized for one value each, from one cipher kept per thread: looking a cipher up by its
 * transformation costs more than encrypting a chat message. Thread-safe: a thread's cipher serves that thread only,
 * one value at a time.
 *
 * <p>The JDK's cipher refuses to encrypt again under the key and nonce it last encrypted with, a guard against
 * reusing a nonce for another plaintext. {@link Sealer}'s nonces are synthetic (the HMAC of the associated data and
 * the plaintext), so the same key and nonce mean the same value sealed again, to the same bytes, as a replay seals
 * it; for that call the kept cipher is first initialized under another nonce, which it then remembers instead (a
 * new cipher, which remembers nothing, would do the same at the price of the lookup).
 */
final class GcmCiphers {

  private static final String TRANSFORMATION = "AES/GCM/NoPadding";
  private static final ThreadLocal<Cipher> KEPT = new ThreadLocal<>();

  private GcmCiphers() {
  }

  /** This thread's cipher, initialized to encrypt one value under {@code key} with {@code parameters}. */
  static Cipher encrypting(SecretKey key, GCMParameterSpec parameters) throws GeneralSecurityException {
    Cipher cipher = kept();
    try {
      cipher.init(Cipher.ENCRYPT_MODE, key, parameters);
    } catch (InvalidAlgorithmParameterException sameKeyAndNonceAsLast) {
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(parameters.getTLen(), otherThan(parameters.getIV())));
      cipher.init(Cipher.ENCRYPT_MODE, key, parameters);
    }
    return cipher;
  }

  /** A nonce of the same length that differs from {@code nonce} in its first bit. */
  private static byte[] otherThan(byte[] nonce) {
    byte[] other = nonce.clone();
    other[0] ^= 1;
    return other;
  }

  /** This thread's cipher, initialized to decrypt one value under {@code key} with {@code parameters}. */
  static Cipher decrypting(SecretKey key, GCMParameterSpec parameters) throws GeneralSecurityException {
    Cipher cipher = kept();
    cipher.init(Cipher.DECRYPT_MODE, key, parameters);
    return cipher;
  }

  private static Cipher kept() throws GeneralSecurityException {
    Cipher cipher = KEPT.get();
    return cipher != null ? cipher : fresh();
  }

  private static Cipher fresh() throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance(TRANSFORMATION);
    KEPT.set(cipher);
    return cipher;
  }
}
