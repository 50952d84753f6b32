/**
 * The Job controller of kube-controller-manager (upstream {@code pkg/controller/job}, Kubernetes
 * 1.36), for {@code NonIndexed} and {@code Indexed} Jobs.
 *
 * <p>Map: {@link io.jdra.controllers.job.JobController} wires the Job and Pod informers, handlers
 * that only enqueue ({@code ns/name} on the queue {@code job}; pod events batched by one second as
 * upstream) and the workers; {@code SyncJob} is one sync (claim pods, decide failure or success,
 * create or delete pods, then count finished pods through {@code status.uncountedTerminatedPods}
 * and the {@code batch.kubernetes.io/job-tracking} finalizer); {@code PodFailurePolicies} matches a
 * failed pod against {@code spec.podFailurePolicy}; {@code BackoffStore} delays replacements of
 * failed pods (10 s doubling, at most 10 min); {@code JobUtil} has conditions and pod helpers;
 * {@code OrphanPods} removes the finalizer from pods no Job counts (the queue {@code
 * job_orphan_pod}); {@code JobMetrics} holds upstream's {@code job_controller_*} metrics.
 */
package io.jdra.controllers.job;
