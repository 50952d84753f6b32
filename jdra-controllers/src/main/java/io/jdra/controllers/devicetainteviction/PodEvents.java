package io.jdra.controllers.devicetainteviction;

/**
 * Where the controller reports what it does to a pod: upstream's Normal events with reason {@value
 * #REASON}, note {@value #MARKING} before deleting and {@value #CANCELLING} when an eviction that
 * was planned is no longer needed. Implementations must not block (handlers call it under the
 * controller's lock).
 */
@FunctionalInterface
interface PodEvents {
  String REASON = "DeviceTaintManagerEviction";
  String MARKING = "Marking for deletion";
  String CANCELLING = "Cancelling deletion";

  void emit(PodRef pod, String note);
}
