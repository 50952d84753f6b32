/** Leader election over Leases: {@link io.jdra.runtime.leaderelection.LeaderElection}. */
package io.jdra.runtime.leaderelection;
