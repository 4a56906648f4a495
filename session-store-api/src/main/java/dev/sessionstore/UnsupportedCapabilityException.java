package dev.sessionstore;

/**
 * The store does not offer an optional {@link Capability}; it is absent from {@link SessionStore#capabilities()}.
 */
public class UnsupportedCapabilityException extends SessionStoreException {

  private final Capability capability;

  public UnsupportedCapabilityException(Capability capability) {
    super("this store does not support " + capability);
    this.capability = capability;
  }

  public Capability capability() {
    return capability;
  }
}
