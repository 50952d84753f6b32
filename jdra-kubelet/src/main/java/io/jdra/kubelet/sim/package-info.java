/**
 * The simulated node: registration and heartbeat of the Node, pods run without containers (claims
 * prepared, CDI devices resolved against the spec files, environment recorded, statuses written as
 * a kubelet would), containers that end as their command lines say ({@code ContainerRun}) and are
 * restarted as {@code restartPolicy} says, upstream's container events, container logs served over
 * HTTP for the API server's pods/log. The annotations {@code sim.jdra.io/run-duration} and {@code
 * sim.jdra.io/termination-delay} steer run-to-completion pods and termination.
 */
package io.jdra.kubelet.sim;
