/**
 * The embedded Kubernetes-compatible API server. Start one with {@link
 * io.jdra.apiserver.EmbeddedApiServer#start} (or {@code jdra apiserver}).
 *
 * <p>Layers: {@code http} (Vert.x request handling, discovery, tables, watch over chunked HTTP and
 * WebSocket), {@code rest} (kube-apiserver's generic registry semantics: metadata, optimistic
 * concurrency, status subresources, deletion with finalizers and grace periods), {@code admission}
 * (metadata validation; resource.k8s.io through jdra-api), {@code storage} (per-resource ordered
 * maps of serialized objects sharing one resourceVersion counter, with a bounded event history per
 * resource for watch resumption), (garbage collection and namespace finalization are the
 * controller-manager's, as upstream), {@code convert} (resource.k8s.io v1beta1/v1beta2 shapes),
 * {@code patch} (patch engines).
 *
 * <p>Storage choice: objects are kept as their JSON bytes (memory close to the JSON size, lists
 * written by concatenation). Durability ({@code --data-dir}) is an own append-only log with group
 * commit (one writer thread, one {@code fdatasync} per batch, acknowledgement after it) and
 * snapshots written to a temporary file, synced and renamed; recovery reads the newest snapshot and
 * the log after it up to the first torn or corrupt record (CRC32C), and rebuilds the watch history
 * from that log tail. An own log was chosen over SQLite because the server needs exactly an ordered
 * write-ahead log of whole objects plus a snapshot, which is small to own, keeps writes a single
 * sequential append and needs no native library.
 */
package io.jdra.apiserver;
