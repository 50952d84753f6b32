package io.jdra.kubelet.dra.plugin;

/** A claim needs a DRA driver that has no registered, connected endpoint on this node. */
public final class DriverNotRegisteredException extends Exception {
  public DriverNotRegisteredException(String driverName) {
    super("DRA driver " + driverName + " is not registered");
  }
}
