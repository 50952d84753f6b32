/**
 * The Deployment controller of kube-controller-manager (upstream {@code pkg/controller/deployment},
 * Kubernetes 1.36).
 *
 * <p>Map: {@link io.jdra.controllers.deployment.DeploymentController} wires the Deployment,
 * ReplicaSet and Pod informers, handlers that only enqueue ({@code ns/name} on the queue {@code
 * deployment}) and the workers; {@code SyncDeployment} is one sync (upstream's {@code
 * syncDeployment}: claim ReplicaSets, paused and scaling paths, {@code RollingUpdate} and {@code
 * Recreate} rollouts); {@code ReplicaSetWriter} creates the new ReplicaSet ({@code
 * <name>-<pod-template-hash>}) and scales ReplicaSets with upstream's events; {@code
 * DeploymentStatuses} computes the status and the {@code Available}/{@code Progressing} conditions;
 * {@code DeploymentUtil} has upstream's helpers (annotations, revisions, surge).
 */
package io.jdra.controllers.deployment;
