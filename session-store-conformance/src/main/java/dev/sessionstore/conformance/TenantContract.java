package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class TenantContract extends Contract {

  protected TenantContract(SessionStoreConformance kit) {
    super(kit);
  }
}
