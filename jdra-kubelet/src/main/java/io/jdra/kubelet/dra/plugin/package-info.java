/**
 * Registered DRA drivers (upstream pkg/kubelet/cm/dra/plugin): service negotiation ({@code
 * v1.DRAPlugin} preferred, {@code v1beta1.DRAPlugin} accepted, {@code v1alpha1.DRAResourceHealth}
 * optional), several endpoints per driver with the newest winning, per-call timeout 45 s, and
 * deletion of a gone driver's ResourceSlices after 30 s.
 */
package io.jdra.kubelet.dra.plugin;
