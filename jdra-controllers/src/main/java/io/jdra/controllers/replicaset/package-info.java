/**
 * The ReplicaSet controller of kube-controller-manager (upstream {@code pkg/controller/replicaset},
 * Kubernetes 1.36).
 *
 * <p>Map: {@link io.jdra.controllers.replicaset.ReplicaSetController} wires the ReplicaSet and Pod
 * informers, event handlers that only enqueue ({@code ns/name} keys on the queue {@code
 * replicaset}) and the workers; {@code SyncReplicaSet} claims pods by controller owner reference,
 * creates or deletes pods to reach {@code spec.replicas} (slow-start batches, at most {@code
 * BURST_REPLICAS} per sync, guarded by expectations) and {@code ReplicaSetStatusUpdate} writes the
 * status.
 */
package io.jdra.controllers.replicaset;
