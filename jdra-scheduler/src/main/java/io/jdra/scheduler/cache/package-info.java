/** The scheduler cache: nodes with their bound and assumed pods, and per-cycle snapshots. */
package io.jdra.scheduler.cache;
