/**
 * Contextual logging as klog/logr: {@link io.jdra.runtime.logging.Logger} (constant message plus
 * key/values, V-levels), {@link io.jdra.runtime.logging.Klog} object references, the process {@link
 * io.jdra.runtime.logging.Verbosity}, and {@link io.jdra.runtime.logging.HandleError}.
 */
package io.jdra.runtime.logging;
