package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class ModelCallAuditContract extends Contract {

  protected ModelCallAuditContract(SessionStoreConformance kit) {
    super(kit);
  }
}
