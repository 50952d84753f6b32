/**
 * The kubelet's gRPC APIs, generated at build time from jdra's own {@code .proto} files under
 * {@code src/main/proto}: wire compatible with k8s.io/kubelet (same proto packages, services,
 * messages and field numbers), with Java packages under {@code io.jdra.proto}.
 *
 * <ul>
 *   <li>{@code io.jdra.proto.pluginregistration.v1}: {@code Registration}, served by every plugin
 *       on its registration socket.
 *   <li>{@code io.jdra.proto.dra.v1} and {@code .v1beta1}: {@code DRAPlugin}, served by DRA
 *       drivers.
 *   <li>{@code io.jdra.proto.drahealth.v1alpha1} and {@code .v1}: {@code DRAResourceHealth}.
 *   <li>{@code io.jdra.proto.podresources.v1}: {@code PodResourcesLister}, served by the kubelet.
 * </ul>
 *
 * {@link io.jdra.proto.UnixSockets} builds servers and channels on Unix domain sockets.
 */
package io.jdra.proto;
