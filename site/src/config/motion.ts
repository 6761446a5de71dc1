/** MOTION_STORAGE_KEY remembers whether the visitor paused the page's animations. */
export const MOTION_STORAGE_KEY = 'queen_motion';
