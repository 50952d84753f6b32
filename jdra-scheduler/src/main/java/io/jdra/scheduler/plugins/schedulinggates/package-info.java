/** Upstream's SchedulingGates plugin. */
package io.jdra.scheduler.plugins.schedulinggates;
