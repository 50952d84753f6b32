/**
 * The node agent: {@link io.jdra.kubelet.Kubelet#start} runs one simulated node (Node object and
 * Lease, pods bound to it, DRA drivers registered in its root directory). Many can run in one
 * process; nothing here is global.
 *
 * <ul>
 *   <li>{@code dra}: upstream's DRA manager (pkg/kubelet/cm/dra): prepare/unprepare, claim info
 *       cache, health, metrics;
 *   <li>{@code dra.state}: the checkpoint {@code dra_manager_state};
 *   <li>{@code dra.plugin}: registered drivers, their gRPC clients, ResourceSlice wiping, health
 *       streams;
 *   <li>{@code pluginmanager}: the registration directory watcher;
 *   <li>{@code sim}: what replaces a container runtime: pod lifecycle, CDI resolution, container
 *       logs, node registration.
 * </ul>
 */
package io.jdra.kubelet;
