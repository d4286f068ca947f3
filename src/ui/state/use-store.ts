import { useEffect, useState, useSyncExternalStore } from "react";
import type { UiStore } from "./store.js";

/** Re-renders the calling component whenever the store changes; returns the store. */
export function useStore(store: UiStore): UiStore {
	useSyncExternalStore(store.subscribe, store.getVersion);
	return store;
}

/** The clock, ticking every `intervalMs` only while `active` (no timer at all while idle). */
export function useNow(active: boolean, intervalMs = 250): number {
	const [now, setNow] = useState(Date.now);
	useEffect(() => {
		if (!active) return;
		setNow(Date.now());
		const timer = setInterval(() => setNow(Date.now()), intervalMs);
		return () => clearInterval(timer);
	}, [active, intervalMs]);
	return now;
}
