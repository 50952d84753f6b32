/**
 * The kubelet's DRA manager, after upstream pkg/kubelet/cm/dra. {@link io.jdra.kubelet.dra.Manager}
 * prepares a pod's claims before its containers start and unprepares them after the last pod using
 * them is gone; {@link io.jdra.kubelet.dra.ClaimInfoCache} is its checkpointed memory. Errors meant
 * for users ({@link io.jdra.kubelet.dra.PrepareException}) follow upstream's wording.
 */
package io.jdra.kubelet.dra;
