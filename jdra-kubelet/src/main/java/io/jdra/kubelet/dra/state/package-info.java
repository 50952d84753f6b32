/**
 * The DRA manager's checkpoint in upstream's format: {@code {"Data": "<json>", "Checksum":
 * <crc32>}} with kind {@code DRACheckpoint}, apiVersion {@code checkpoint.dra.kubelet.k8s.io/v1},
 * written to a temporary file, synced and renamed. A corrupt checkpoint is an error, never an empty
 * state.
 */
package io.jdra.kubelet.dra.state;
