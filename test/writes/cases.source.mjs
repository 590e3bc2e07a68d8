// The write cases recorded from the reference (record.mjs), in the order they are sent.
export const readBackQuery = {};
export const groups = [];
