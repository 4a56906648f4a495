package dev.sessionstore;

/**
 * The store does not offer an optional {@link Capability}; it is absent from {@link SessionStore#capabilities()}.
 */
public class UnsupportedCapabilityException extends SessionStoreException {

  /** The capability the store lacks. */
  private final Capability capability;

  /** The store lacks {@code capability}, which the call needs; nothing was done. */
  public UnsupportedCapabilityException(Capability capability) {
    super("this store does not support " + capability);
    this.capability = capability;
  }

  /**
   * The store lacks {@code capability}, which the call needs, for the reason {@code why} (appended to the message: a
   * decorator that removes a capability of the store it wraps says why); nothing was done.
   */
  public UnsupportedCapabilityException(Capability capability, String why) {
    super("this store does not support " + capability + ": " + why);
    this.capability = capability;
  }

  /** The capability the call needed and the store lacks. */
  public Capability capability() {
    return capability;
  }
}
