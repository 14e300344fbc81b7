// The web bundle takes no values from the contracts' index (it would bring zod along): the one refusal text the
// quiz screen tells apart is copied here, and live-refusals.test.ts keeps it equal to the contract's.

/** `liveMessages.joinClosed`: the detail of the 409 refusing a start between the join window and the common end. */
export const JOIN_CLOSED_DETAIL = 'The join window of this live mock has closed.'
